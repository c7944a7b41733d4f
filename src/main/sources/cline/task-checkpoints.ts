import type { SourceRecord } from '../records'
import { withCheckpointEdits } from './checkpoint-edits'
import { clineRanges, rooRanges } from './checkpoint-ranges'
import { checkpointChanges, rooShadowGitDir, shadowGitDir } from './shadow-git'
import type { UiFacts } from './ui-messages'

/**
 * The task's records with the changes its checkpoints saw: Cline's (`checkpoint_created`, a
 * repository per workspace) or Roo Code's and Kilo Code's (`checkpoint_saved`, a repository per
 * task). Nothing happens when the UI names no checkpoint or the repository is gone.
 */
export function withTaskCheckpoints(records: SourceRecord[], facts: UiFacts, taskDir: string, storage: string, cwd: string): { records: SourceRecord[]; problems: string[] } {
  if (facts.savedCheckpoints.length > 0) {
    const gitDir = rooShadowGitDir(taskDir, storage, cwd)
    if (gitDir) return withCheckpointEdits(records, rooRanges(records, facts.savedCheckpoints), commitsOf(gitDir), cwd)
  } else if (facts.checkpoints.length > 0) {
    const gitDir = shadowGitDir(storage, cwd)
    if (gitDir) return withCheckpointEdits(records, clineRanges(records, facts.checkpoints), commitsOf(gitDir), cwd)
  }
  return { records, problems: [] }
}

function commitsOf(gitDir: string) {
  return { gitDir, changes: (from: string, to: string) => checkpointChanges(gitDir, from, to) }
}

/**
 * A checkpoint restored inside the agent ("Restore Files & Task"): the agent deleted every
 * message after it and left one row saying what the deleted requests cost, so there is no
 * abandoned line to show as a branch; a system message marks the place instead (before the first
 * message saved after the restore).
 */
export function withRestoreNotes(records: SourceRecord[], restores: UiFacts['restores'], agent: string, taskId: string): SourceRecord[] {
  if (restores.length === 0) return records
  const out = [...records]
  restores.forEach((restore, index) => {
    const cost = restore.usage?.costUsd != null ? `, $${restore.usage.costUsd.toFixed(4)}` : ''
    const tokens = restore.usage ? ` (${(restore.usage.inputTokens ?? 0) + (restore.usage.outputTokens ?? 0)} tokens${cost})` : ''
    const text = `${agent} restored checkpoint ${restore.hash ?? '(unknown)'} here: it deleted the messages after it and their requests${tokens}.`
    const at = restore.ts === undefined ? -1 : out.findIndex((record) => record.kind === 'message' && record.createdAt !== undefined && record.createdAt > (restore.ts as number))
    const offset = at === -1 ? (out.at(-1)?.offset ?? 0) : (out[at] as SourceRecord).offset
    const createdAt = restore.ts !== undefined ? { createdAt: restore.ts } : {}
    out.splice(at === -1 ? out.length : at, 0, { kind: 'message', offset, uid: `${taskId}#restore.${index + 1}`, parentUid: null, agentId: null, startsTurn: false, role: 'system', content: text, ...createdAt })
  })
  return out
}
