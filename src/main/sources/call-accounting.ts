import type { FileTools } from './adapter'
import type { FileImportState } from './import-state'
import { pathsNamedBy } from './named-paths'
import type { MessageRecord } from './records'

/** Why a `writes` call without a change is not captured: its result never came, or carried nothing. */
export const NO_RESULT = "the agent's history holds no result for this call"
export const NO_CHANGE_IN_RESULT = 'its result carries no file content'
export const UNKNOWN_TOOL = 'unknown tool, may have changed files'

/** What the pipeline does with a tool call under the accounting rule (docs/reliability.md R43). */
export type CallAccount = { kind: 'none' } | { kind: 'pending'; path: string | null } | { kind: 'unknown'; paths: string[] }

/**
 * A call of a `writes` tool is pending until a change or an entry names it; a call of a tool in
 * none of the lists whose input names a path is reported at once; the rest need nothing. The
 * text editor tools' `view` command (Anthropic's `str_replace_editor` shape, which several
 * agents use) only reads.
 */
export function accountOf(tools: FileTools, record: Pick<MessageRecord, 'toolName' | 'toolInput'>): CallAccount {
  const tool = record.toolName ?? ''
  const input = record.toolInput
  if (tools.writes.includes(tool)) {
    if (isEditorView(input)) return { kind: 'none' }
    return { kind: 'pending', path: pathsNamedBy(input)[0] ?? null }
  }
  if (tools.reads.includes(tool) || tools.shell.includes(tool)) return { kind: 'none' }
  const paths = pathsNamedBy(input)
  return paths.length > 0 ? { kind: 'unknown', paths } : { kind: 'none' }
}

function isEditorView(input: unknown): boolean {
  return input !== null && typeof input === 'object' && (input as Record<string, unknown>).command === 'view'
}

/**
 * A change or entry for `toolCallId` (or, for a change whose record names no call, for `path`
 * in the session's pending calls) accounts for its call. True if the call had been settled as
 * not captured already (its entry is then to be taken back).
 */
export function accountFor(state: FileImportState, uid: string, toolCallId: string | null, path: string | null, samePath: (a: string, b: string) => boolean): string | null {
  const pending = state.pendingWrites[uid]
  if (toolCallId === null) {
    const match = pending && path !== null ? Object.entries(pending).find(([, call]) => call.path !== null && samePath(call.path, path)) : undefined
    if (match && pending) delete pending[match[0]]
    return null
  }
  if (pending?.[toolCallId]) delete pending[toolCallId]
  const settled = state.settledWrites[uid]
  const index = settled?.indexOf(toolCallId) ?? -1
  if (index === -1 || !settled) return null
  settled.splice(index, 1)
  return toolCallId
}
