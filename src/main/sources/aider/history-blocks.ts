/**
 * The layout of `.aider.chat.history.md`, as aider/io.py `append_chat_history` writes it (every
 * Aider version since 0.x keeps it; checked against the writer at Aider-AI/aider 5dc9490):
 *
 * - `\n# aider chat started at YYYY-MM-DD HH:MM:SS\n\n` opens each run of Aider (local time).
 * - a user input: each of its lines as `#### <line>  ` (two trailing spaces, a markdown line
 *   break), consecutive lines being one multi-line prompt; commands (`/add`, `/run`) too.
 * - Aider's own output and confirmations: `> <text>  `. A message of several lines gets `> `
 *   on its first line only and the two spaces on its last line only (blank lines included:
 *   `--show-repo-map` output); a multi-line error is written line by line, each as `> …  `.
 * - an answer: `\n<content>\n\n`, verbatim markdown (it may hold `#### ` headings and `> `
 *   quotes of its own, told apart by the trailing two spaces and the blank line before).
 *
 * The file is only ever appended to, so a session is whole once the next header follows it.
 */

export type BlockKind = 'user' | 'tool' | 'assistant'

export interface HistoryBlock {
  kind: BlockKind
  /** Byte offset of the block's first line in the file. */
  offset: number
  /** The lines with Aider's markup removed (`#### `, `> `, the trailing line-break spaces). */
  lines: string[]
}

export interface HistorySession {
  /** Byte offset of the header line (0 for text before any header: a file that was cut). */
  offset: number
  /** Byte offset just past the session's last line. */
  end: number
  /** `YYYY-MM-DD HH:MM:SS` from the header; null for text before the first header. */
  startedAt: string | null
  blocks: HistoryBlock[]
}

const HEADER = /^# aider chat started at (.*)$/
const USER_LINE = /^#### (.*) {2}$/
/** `> text`; a multi-line message's first line lacks the trailing spaces (they end its last line). */
const TOOL_LINE = /^>(?: (.*?))?\s*$/
const FENCE = /^\s*```/
/** The usage report Aider prints after every answer: it ends the answer even where a fence was left open. */
const USAGE_LINE = /^> Tokens: /

/** The sessions of a chat history file, in file order, with the blocks of each. */
export function splitHistory(text: string): HistorySession[] {
  const sessions: HistorySession[] = []
  let session: HistorySession = { offset: 0, end: 0, startedAt: null, blocks: [] }
  let block = null as HistoryBlock | null
  let previousBlank = true
  let inFence = false
  // Inside a message of several lines: only its last line ends in Aider's two spaces.
  let toolOpen = false
  let offset = 0
  const size = Buffer.byteLength(text, 'utf8')
  for (const raw of text.split('\n')) {
    const start = offset
    offset += Buffer.byteLength(raw, 'utf8') + 1
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    const header = HEADER.exec(line)
    if (header) {
      if (session.blocks.length > 0 || session.startedAt !== null) sessions.push(session)
      session = { offset: start, end: start, startedAt: (header[1] ?? '').trim(), blocks: [] }
      block = null
      previousBlank = true
      inFence = false
      toolOpen = false
      continue
    }
    session.end = Math.min(offset, size)
    if (toolOpen && block?.kind === 'tool' && !USER_LINE.test(line)) {
      block.lines.push(line.replace(/ {2}$/, ''))
      toolOpen = !line.endsWith('  ')
      previousBlank = line.trim() === ''
      continue
    }
    const next = classify(line, block?.kind ?? null, previousBlank && (!inFence || USAGE_LINE.test(line)))
    previousBlank = line.trim() === ''
    toolOpen = next?.kind === 'tool' && !line.endsWith('  ')
    // A fenced block of an answer (a SEARCH/REPLACE of a markdown file) may hold `> ` lines.
    inFence = next?.kind === 'assistant' ? inFence !== FENCE.test(line) : false
    if (next === null) {
      // A blank line ends a prompt or an output block; inside an answer it is the answer's.
      if (block?.kind === 'assistant') block.lines.push('')
      else block = null
      continue
    }
    if (block?.kind !== next.kind) {
      block = { kind: next.kind, offset: start, lines: [] }
      session.blocks.push(block)
    }
    block.lines.push(next.text)
  }
  if (session.blocks.length > 0 || session.startedAt !== null) sessions.push(session)
  for (const each of sessions) for (const b of each.blocks) if (b.kind === 'assistant') trimTrailingBlanks(b.lines)
  return sessions
}

/**
 * What one line is, given the block it follows; null for a blank line outside an answer. Aider's
 * output after an answer follows a blank line (`ai_output` ends in `\n\n`), outside any fence.
 */
function classify(line: string, current: BlockKind | null, mayEndAnswer: boolean): { kind: BlockKind; text: string } | null {
  const user = USER_LINE.exec(line)
  if (user) return { kind: 'user', text: user[1] ?? '' }
  const tool = TOOL_LINE.exec(line)
  if (tool && (current !== 'assistant' || mayEndAnswer)) return { kind: 'tool', text: (tool[1] ?? '').trimEnd() }
  if (current === 'tool' && line.trim() !== '') return { kind: 'tool', text: line.replace(/ {2,}$/, '') }
  if (current === 'assistant') return { kind: 'assistant', text: line }
  if (line.trim() === '') return null
  return { kind: 'assistant', text: line }
}

function trimTrailingBlanks(lines: string[]): void {
  while (lines.length > 0 && (lines.at(-1) ?? '').trim() === '') lines.pop()
}
