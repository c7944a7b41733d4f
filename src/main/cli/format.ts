import type { Message, SessionSummary } from '../../shared/contract'
import { ROLE_LABELS } from '../transcripts/role-labels'

/** `2026-03-10 14:02`, local time: what a person scanning a list wants. */
export function formatTime(ms: number | null): string {
  if (ms === null) return '—'
  const d = new Date(ms)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** Left-aligned columns sized to their widest cell. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ')
  return [line(header), ...rows.map(line)].join('\n')
}

export function sessionRows(sessions: SessionSummary[]): string[][] {
  return sessions.map((s) => [
    formatTime(s.updatedAt),
    s.rewoundInAgent ? 'branch (rewound)' : s.kind,
    s.source,
    String(s.turnCount),
    String(s.messageCount),
    s.id,
    `${'  '.repeat(Math.min(s.depth, 4))}${shownTitle(s)}${sessionNotes(s)}`
  ])
}

/** The session's title; a label made from what it did in parentheses, as the placeholders are. */
function shownTitle(s: SessionSummary): string {
  if (s.titleOrigin === 'own') return s.title
  if (s.titleOrigin === 'derived') return `(${s.title})`
  return s.messageCount === 0 ? '(empty)' : '(untitled)'
}

/** What a title alone does not say: the subfolder it ran in (R59), a warm-up, a parent named but not found, a merged branch. */
function sessionNotes(s: SessionSummary): string {
  const notes = [s.folder ? `in ${s.folder}/` : '', s.warmup ? 'warm-up' : '', s.missingParent ? `parent session not found: ${s.missingParent}` : '', s.merged ? mergedNote(s.merged) : ''].filter(Boolean)
  return notes.length > 0 ? `  [${notes.join('; ')}]` : ''
}

function mergedNote(merged: NonNullable<SessionSummary['merged']>): string {
  const times = merged.count === 1 ? 'merged' : `merged ${merged.count} times`
  return merged.newMessages > 0 ? `${times}, ${merged.newMessages} new since` : times
}

/** A transcript message as plain text for a terminal. */
export function formatMessage(message: Message): string {
  const head = message.role === 'tool_call' || message.role === 'tool_result'
    ? `${ROLE_LABELS[message.role]} · ${message.toolName ?? '?'}${message.isError ? ' · error' : ''}`
    : ROLE_LABELS[message.role]
  const body = message.role === 'tool_call' ? JSON.stringify(message.toolInput, null, 2) : message.content
  const usage = message.usage ? `  [${message.usage.inputTokens} in / ${message.usage.outputTokens} out tokens]` : ''
  return `${head}${usage}\n${indent(body.trimEnd())}`
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')
}
