import type { MessageRecord, SourceRecord } from '../records'
import { findEditBlocks } from './edit-blocks'
import { blockEdit, samePath, type PendingEdit } from './edit-records'
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
/** aider/repo.py `commit`: `Commit <short hash> <message>`; commands.py `cmd_undo`: `Removed: <hash> <message>`. */
const COMMIT = /^Commit ([0-9a-f]{7,40}) /
const REMOVED = /^Removed: ([0-9a-f]{7,40}) /
const NO_BLOCK = 'Aider applied an edit the answer holds no SEARCH/REPLACE block for (a whole-file, udiff or architect edit), and no commit of it was found in the repository here'

/**
 * A commit Aider made of a turn's edits (or the one `/undo` took back): where its exact file
 * changes go in the records, and which records (the turn's hunks since the previous commit)
 * they replace when the repository still has it.
 */
export interface CommitMark {
  sha: string
  undo: boolean
  offset: number
  /** Index in the records of the first hunk edit it covers (equal to `at` when none). */
  from: number
  /** Index in the records just past them, where the exact changes go. */
  at: number
}

interface TurnState {
  pending: PendingEdit[]
  /** Index of the first edit record since the last commit; null while Aider applied nothing. */
  editsFrom: number | null
  model?: string
}

/**
 * One Aider run as records: each user input opens a turn (a multi-line input is one prompt),
 * answers are assistant messages, Aider's own output (`> ` lines) system messages. The edits of
 * an answer's SEARCH/REPLACE blocks become file edits when Aider then says `Applied edit to
 * <path>`; the commit it made of them is marked (see CommitMark). Commands it ran (`Running
 * <cmd>`) are shell commands; `Tokens: … sent, … received. Cost: $…` is the answer's usage.
 * A turn takes its prompt's time from `promptAt` (block index → epoch ms), else the run's.
 * Null for a run without any input or answer (Aider started and quit, `--lint`, `--commit`).
 */
export function sessionRecords(session: HistorySession, key: string, createdAt: number | undefined, promptAt: ReadonlyMap<number, number> = new Map()): { records: SourceRecord[]; commits: CommitMark[] } | null {
  // Two Aider processes sharing a repository write into the same file, so a run may hold an
  // answer to a prompt logged under another run's header.
  const firstPrompt = session.blocks.find((block) => block.kind === 'user') ?? session.blocks.find((block) => block.kind === 'assistant')
  if (!firstPrompt) return null
  const time = createdAt !== undefined ? { createdAt } : {}
  const records: SourceRecord[] = [{ kind: 'session-meta', offset: session.offset, sessionId: key, title: titleOf(firstPrompt.lines), titleOrigin: 'first-prompt', ...time }]
  const commits: CommitMark[] = []
  const turn: TurnState = { pending: [], editsFrom: null }
  // The answer the next usage report measures (it carries the cost, which late usage would lose).
  let answer: MessageRecord | null = null
  // A turn's records carry its prompt's exact time when the input history gave it (input-history.ts).
  let turnTime = time
  // The text of the latest answer, which an architect hands to its editor model.
  let lastAnswer: string | null = null
  session.blocks.forEach((block, index) => {
    if (block.kind === 'user') {
      const exact = promptAt.get(index)
      turnTime = exact !== undefined ? { createdAt: exact } : time
    }
    const message = { kind: 'message' as const, offset: block.offset, uid: `${key}#${index}`, parentUid: null, agentId: null, ...turnTime }
    const content = block.lines.join('\n')
    if (block.kind === 'user' && lastAnswer !== null && sameText(content, lastAnswer)) {
      // Architect mode: the architect's answer handed to the editor model, which Aider logs as
      // `#### ` lines (architect_coder.py runs the editor `with_message=` the answer, and io.py
      // logs every such input as the user's). Not a prompt: the turn goes on. The architect's
      // own answer is never applied; the editor's is.
      turn.pending = []
      lastAnswer = null
      records.push({ ...message, role: 'system', startsTurn: false, content })
    } else if (block.kind === 'user') {
      turn.pending = []
      turn.editsFrom = null
      answer = null
      lastAnswer = null
      records.push({ ...message, role: 'user', startsTurn: true, content })
    } else if (block.kind === 'assistant') {
      lastAnswer = content
      answer = { ...message, role: 'assistant', startsTurn: false, content, ...(turn.model ? { model: turn.model } : {}) }
      records.push(answer)
      for (const found of findEditBlocks(content + '\n').blocks) {
        if (found.kind === 'edit') turn.pending.push({ offset: block.offset, path: found.path, search: found.search, replace: found.replace })
      }
    } else {
      records.push({ ...message, role: 'system', startsTurn: false, content })
      readToolOutput(block, turn, records, commits, answer)
    }
  })
  return { records, commits }
}

/** What one block of Aider's output says: the model, usage, edits applied and committed, commands run. */
function readToolOutput(block: HistoryBlock, turn: TurnState, records: SourceRecord[], commits: CommitMark[], answer: MessageRecord | null): void {
  const created = new Set<string>()
  block.lines.forEach((line, at) => {
    const named = MODEL.exec(line)?.[1]
    if (named && named !== turn.model) {
      turn.model = named
      records.push({ kind: 'session-meta', offset: block.offset, model: named })
    }
    if (CREATE_YES.test(line) && at > 0) created.add(samePath(block.lines[at - 1] ?? ''))
    const usage = line.startsWith('Tokens: ') ? parseTokens(`${line} ${block.lines[at + 1] ?? ''}`) : null
    if (usage && answer && !answer.usage) answer.usage = usage
    else if (usage) records.push({ kind: 'usage', offset: block.offset, usage })
    const ran = RUNNING.exec(line)?.[1]
    if (ran) records.push({ kind: 'shell-command', offset: block.offset, toolCallId: null, command: ran })
    const applied = APPLIED.exec(line)?.[1]
    if (applied) {
      const path = samePath(applied)
      turn.editsFrom ??= records.length
      const mine = turn.pending.filter((edit) => samePath(edit.path) === path)
      turn.pending = turn.pending.filter((edit) => samePath(edit.path) !== path)
      records.push(...mine.map((edit, i) => blockEdit(edit, i === 0 && created.has(path))))
      // No SEARCH/REPLACE block of the answer names the file (the whole-file and architect edit
      // formats, udiff…): only the commit Aider made of it can say what changed (read-history.ts
      // replaces this report when the repository has it).
      if (mine.length === 0) records.push({ kind: 'change-not-captured', offset: block.offset, toolCallId: null, tool: 'Applied edit', path: applied.trim(), reason: NO_BLOCK })
    }
    // Only a commit after an applied edit is Aider's commit of it (a commit of dirty files comes before).
    const committed = turn.editsFrom !== null ? COMMIT.exec(line)?.[1] : undefined
    if (committed && turn.editsFrom !== null) {
      commits.push({ sha: committed, undo: false, offset: block.offset, from: turn.editsFrom, at: records.length })
      turn.editsFrom = null
    }
    const removed = REMOVED.exec(line)?.[1]
    if (removed) commits.push({ sha: removed, undo: true, offset: block.offset, from: records.length, at: records.length })
  })
}

/** Two texts alike but for whitespace at line ends and around them (Aider adds two spaces to every line it logs). */
function sameText(a: string, b: string): boolean {
  const flat = (text: string) => text.split('\n').map((line) => line.trimEnd()).join('\n').trim()
  return flat(a) === flat(b)
}

function titleOf(lines: string[]): string {
  const first = lines.find((line) => line.trim() !== '') ?? ''
  return first.length > TITLE_LENGTH ? `${first.slice(0, TITLE_LENGTH - 1)}…` : first
}
