import type { Usage } from '../../shared/contract'
import type { ExportDocument, ExportFileChange, ExportMessage } from './document-schema'
import type { ExportMeta } from './export-meta'
import { ROLE_LABELS } from '../transcripts/role-labels'
import { rewoundInLabel } from '../../shared/source-labels'
import { TOO_MANY_CHANGES } from '../journal/line-diff/bounds.mts'

// What the Markdown and HTML renderers share: how a document reads as turns, and the words and
// numbers a reader sees. Nothing here escapes anything: each renderer escapes for its own syntax.

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/** One turn as a reader meets it: its messages (tool results folded into their calls) and files. */
export interface TurnView {
  turn: number
  items: TurnItem[]
  checkpoint: ExportDocument['checkpoints'][number] | null
  changes: ExportFileChange[]
  /** The turn's first user prompt, for the table of contents. */
  prompt: string | null
}

export type TurnItem =
  | { kind: 'message'; message: ExportMessage }
  | { kind: 'tool'; call: ExportMessage; result: ExportMessage | null }

export function turnsOf(doc: ExportDocument): TurnView[] {
  const turns = new Map<number, TurnView>()
  const view = (turn: number): TurnView => {
    let found = turns.get(turn)
    if (!found) {
      found = { turn, items: [], checkpoint: null, changes: [], prompt: null }
      turns.set(turn, found)
    }
    return found
  }
  const resultsByCall = new Map<string, ExportMessage>()
  for (const message of doc.messages) {
    if (message.role === 'tool_result' && message.toolCallId && !resultsByCall.has(message.toolCallId)) resultsByCall.set(message.toolCallId, message)
  }
  const folded = new Set<ExportMessage>()
  for (const message of doc.messages) {
    if (folded.has(message)) continue
    const turn = view(message.turn)
    if (message.role === 'tool_call') {
      const result = message.toolCallId ? (resultsByCall.get(message.toolCallId) ?? null) : null
      if (result && result.seq > message.seq) folded.add(result)
      turn.items.push({ kind: 'tool', call: message, result: result && result.seq > message.seq ? result : null })
      continue
    }
    if (message.role === 'user' && turn.prompt === null) turn.prompt = message.content
    turn.items.push({ kind: 'message', message })
  }
  for (const checkpoint of doc.checkpoints) view(checkpoint.turn).checkpoint = checkpoint
  for (const change of doc.fileChanges) view(change.turn).changes.push(change)
  return [...turns.values()].sort((a, b) => a.turn - b.turn)
}

export function roleLabel(message: Pick<ExportMessage, 'role' | 'toolName'>): string {
  if (message.role === 'tool_call' && message.toolName) return `${message.toolName} call`
  if (message.role === 'tool_result' && message.toolName) return `${message.toolName} result`
  return ROLE_LABELS[message.role]
}

/** `2026-03-10 14:02 UTC`: the export is read elsewhere, so never the exporting machine's time zone. */
export function formatTime(ms: number | null): string {
  if (ms === null) return '—'
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US')
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`
}

export function usageLine(usage: Usage): string {
  const parts = [`${formatCount(usage.inputTokens)} in`, `${formatCount(usage.outputTokens)} out`]
  if (usage.cacheReadTokens > 0) parts.push(`${formatCount(usage.cacheReadTokens)} cache read`)
  if (usage.cacheWriteTokens > 0) parts.push(`${formatCount(usage.cacheWriteTokens)} cache write`)
  const cost = usage.costUsd === null ? '' : ` · $${usage.costUsd.toFixed(usage.costUsd < 1 ? 4 : 2)}`
  return `${parts.join(' · ')} tokens${cost}`
}

/** What the reader is told about redaction, in the header of the page and of the Markdown. */
export function redactionNote(meta: ExportMeta): string {
  if (!meta.redaction.applied) return 'Not redacted: this export shows everything the session recorded.'
  if (meta.redaction.hidden === 0) return 'Scanned for secrets before export; nothing hidden.'
  return `${plural(meta.redaction.hidden, 'secret')} hidden after review, shown as [REDACTED: …].`
}

/** Where the messages were read from: the agent's files or tables, in order of first use. */
export function sourcesOf(doc: ExportDocument): string[] {
  const seen = new Set<string>()
  for (const message of doc.messages) {
    const ref = message.sourceRef
    if (ref) seen.add('file' in ref ? ref.file : ref.table)
  }
  return [...seen]
}

/** The first line of a text, shortened for a heading or a summary line. */
export function firstLine(text: string, max = 100): string {
  const line = text.trim().split('\n', 1)[0]?.trim() ?? ''
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** Fields agents use for the gist of a call, most telling first. */
const GIST_FIELDS = ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'prompt']

/** A one-line hint of what a tool call did, from its input (empty when nothing fits). */
export function toolGist(input: JsonValue | null): string {
  if (typeof input === 'string') return firstLine(input, 120)
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return ''
  for (const field of GIST_FIELDS) {
    const value = input[field]
    if (typeof value === 'string' && value.trim()) return firstLine(value, 120)
  }
  return ''
}

/** A tool input as labelled fields: strings as they are (multi-line code stays readable), the rest as JSON. */
export function inputFields(input: JsonValue | null): { name: string; value: string }[] {
  if (input === null) return []
  if (typeof input !== 'object' || Array.isArray(input)) return [{ name: '', value: typeof input === 'string' ? input : JSON.stringify(input, null, 2) }]
  return Object.entries(input).map(([name, value]) => ({ name, value: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }))
}

export const OP_LABEL: Record<ExportFileChange['op'], string> = {
  create: 'created',
  modify: 'modified',
  delete: 'deleted',
  rename: 'renamed',
  mode: 'mode changed'
}

/**
 * What an export says above a diff past the line diff's bounds (R27): that, both versions' sizes
 * and hashes, and that the patch below is the two versions one after the other.
 */
export function tooManyChangesNote(change: ExportFileChange): string {
  const side = (version: { hash: string; size: number } | null, absent: string) => (version ? `${version.size.toLocaleString('en-US')} bytes, sha256 ${version.hash.slice(0, 12)}` : absent)
  return `Too many changes to diff by line. Before: ${side(change.before, 'did not exist')}; after: ${side(change.after, 'deleted')}. Below, the two versions: every old line removed, then every new line added.`
}

/** `+12 −3`, or why there are no line counts. */
export function changeCounts(change: ExportFileChange): string {
  switch (change.diff.kind) {
    case 'text':
      return `+${change.diff.added ?? 0} −${change.diff.removed ?? 0}`
    case 'binary':
      return 'binary'
    case 'too-large':
      return 'too large to diff'
    case 'too-many-changes':
      return TOO_MANY_CHANGES
    case 'symlink':
      return 'link'
    case 'unavailable':
      return 'snapshot unavailable'
  }
}

/** What the document says of rewinds inside the agent: a term ("Rewound in Claude Code") and a sentence per line left. */
export function agentRewindLines(doc: ExportDocument): { term: string; text: string }[] {
  const term = rewoundInLabel(doc.session.source).replace(/^r/, 'R')
  return (doc.tree.agentRewinds ?? []).map(({ turn, left, from }) => {
    const at = turn === null ? '' : ` to turn ${turn}`
    return left.id === doc.session.id
      ? { term, text: `This is the line the user left: they went back${at} and continued in “${from.title || 'Untitled'}”.` }
      : { term, text: `The user went back${at}; the line they left is the branch “${left.title || 'Untitled'}”.` }
  })
}

/**
 * How many files the changes touched, each once: a file modified in three turns, or renamed
 * then given a new mode, is one file (a rename carries the file's identity to its new path).
 */
export function countFiles(changes: readonly Pick<ExportFileChange, 'pathId' | 'from'>[]): number {
  const identity = new Map<string, string>()
  const files = new Set<string>()
  const of = (pathId: string) => identity.get(pathId) ?? pathId
  for (const change of changes) {
    const file = change.from ? of(change.from.pathId) : of(change.pathId)
    identity.set(change.pathId, file)
    files.add(file)
  }
  return files.size
}

/** `3 files changed`, and the count of changes when some file changed more than once. */
export function filesChangedLine(changes: readonly Pick<ExportFileChange, 'pathId' | 'from'>[]): string {
  const files = countFiles(changes)
  return `${plural(files, 'file')} changed${files !== changes.length ? ` (${plural(changes.length, 'change')})` : ''}`
}
