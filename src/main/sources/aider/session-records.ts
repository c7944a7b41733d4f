import type { FileEditRecord, MessageRecord, SourceRecord } from '../records'
import { findEditBlocks } from './edit-blocks'
import type { HistoryBlock, HistorySession } from './history-blocks'
import { parseTokens } from './tokens'

/** Longest title taken from a first prompt, in characters. */
const TITLE_LENGTH = 100
/** `Model: x with …` (one model), `Models: x with …, weak model y` (0.4x), `Main model: x with …` (later). */
const MODEL = /^(?:Main model|Models?): (\S+) with /
const APPLIED = /^Applied edit to (.+)$/
const RUNNING = /^Running (.+)$/
/** The confirmation Aider asks before an edit creates a file; the line before it names the file. */
const CREATE_YES = /^Create new file\?.*\s(?:y|yes|a|all)$/i

interface PendingEdit {
  offset: number
  path: string
  search: string
  replace: string
}

/**
 * One Aider run as records: each user input opens a turn (a multi-line input is one prompt),
 * answers are assistant messages, Aider's own output (`> ` lines) system messages. The edits of
 * an answer's SEARCH/REPLACE blocks become file edits when Aider then says `Applied edit to
 * <path>`: as hunks, which the importer applies to the content it knows (a file Aider created in
 * the session), with `before: null` for a file Aider asked to create. Commands it ran
 * (`Running <cmd>`) are shell commands; `Tokens: … sent, … received. Cost: $…` lines are usage.
 * Null for a run without any input or answer (Aider started and quit, `--lint`, `--commit`).
 */
export function sessionRecords(session: HistorySession, key: string, createdAt: number | undefined): SourceRecord[] | null {
  // Two Aider processes sharing a repository write into the same file, so a run may hold an
  // answer to a prompt logged under another run's header.
  const firstPrompt = session.blocks.find((block) => block.kind === 'user') ?? session.blocks.find((block) => block.kind === 'assistant')
  if (!firstPrompt) return null
  const time = createdAt !== undefined ? { createdAt } : {}
  const records: SourceRecord[] = [{ kind: 'session-meta', offset: session.offset, sessionId: key, title: titleOf(firstPrompt.lines), titleOrigin: 'first-prompt', ...time }]
  let model: string | undefined
  let pending: PendingEdit[] = []
  // The answer the next usage report measures (it carries the cost, which late usage would lose).
  let answer: MessageRecord | null = null
  session.blocks.forEach((block, index) => {
    const message = { kind: 'message' as const, offset: block.offset, uid: `${key}#${index}`, parentUid: null, agentId: null, ...time }
    const content = block.lines.join('\n')
    if (block.kind === 'user') {
      pending = []
      answer = null
      records.push({ ...message, role: 'user', startsTurn: true, content })
    } else if (block.kind === 'assistant') {
      answer = { ...message, role: 'assistant', startsTurn: false, content, ...(model ? { model } : {}) }
      records.push(answer)
      for (const found of findEditBlocks(content + '\n').blocks) {
        if (found.kind === 'edit') pending.push({ offset: block.offset, path: found.path, search: found.search, replace: found.replace })
      }
    } else {
      records.push({ ...message, role: 'system', startsTurn: false, content })
      const learnt = toolOutputRecords(block, pending)
      pending = learnt.pending
      if (learnt.model && learnt.model !== model) {
        model = learnt.model
        records.push({ kind: 'session-meta', offset: block.offset, model })
      }
      for (const record of learnt.records) {
        if (record.kind === 'usage' && answer && !answer.usage) answer.usage = record.usage
        else records.push(record)
      }
    }
  })
  return records
}

/** What one block of Aider's output says: the model, usage, edits applied, commands run. */
function toolOutputRecords(block: HistoryBlock, pending: PendingEdit[]): { records: SourceRecord[]; pending: PendingEdit[]; model?: string } {
  const records: SourceRecord[] = []
  const created = new Set<string>()
  let model: string | undefined
  let left = pending
  block.lines.forEach((line, at) => {
    const named = MODEL.exec(line)
    if (named?.[1]) model = named[1]
    if (CREATE_YES.test(line) && at > 0) created.add(samePath(block.lines[at - 1] ?? ''))
    const usage = line.startsWith('Tokens: ') ? parseTokens(`${line} ${block.lines[at + 1] ?? ''}`) : null
    if (usage) records.push({ kind: 'usage', offset: block.offset, usage })
    const ran = RUNNING.exec(line)
    if (ran?.[1]) records.push({ kind: 'shell-command', offset: block.offset, toolCallId: null, command: ran[1] })
    const applied = APPLIED.exec(line)
    if (applied?.[1]) {
      const path = samePath(applied[1])
      const mine = left.filter((edit) => samePath(edit.path) === path)
      left = left.filter((edit) => samePath(edit.path) !== path)
      records.push(...mine.map((edit, i) => fileEdit(edit, i === 0 && created.has(path))))
    }
  })
  return { records, pending: left, ...(model ? { model } : {}) }
}

/**
 * A block as a file edit: the whole file when Aider created it from an empty SEARCH, else the
 * SEARCH lines removed and the REPLACE lines added, as one hunk (an empty SEARCH appends, as in
 * Aider's `do_replace`).
 */
function fileEdit(edit: PendingEdit, createsFile: boolean): FileEditRecord {
  const record: FileEditRecord = { kind: 'file-edit', offset: edit.offset, toolCallId: null, path: edit.path }
  if (createsFile && edit.search.trim() === '') {
    record.before = null
    record.after = edit.replace
    return record
  }
  record.patch = [...hunkLines(edit.search, '-'), ...hunkLines(edit.replace, '+')].join('\n') + '\n'
  return record
}

function hunkLines(text: string, marker: string): string[] {
  if (text === '') return []
  return text.replace(/\r?\n$/, '').split(/\r?\n/).map((line) => marker + line)
}

/** Paths as Aider prints them and as the answer wrote them, compared alike. */
function samePath(path: string): string {
  return path.trim().replace(/\\/g, '/').replace(/^\.\//, '')
}

function titleOf(lines: string[]): string {
  const first = lines.find((line) => line.trim() !== '') ?? ''
  return first.length > TITLE_LENGTH ? `${first.slice(0, TITLE_LENGTH - 1)}…` : first
}
