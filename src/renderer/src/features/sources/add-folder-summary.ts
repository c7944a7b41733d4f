import type { MethodOutput } from '../../../../shared/contract'
import { plural } from '../../lib/format'

type Added = MethodOutput<'workspaces.addSourceFolder'>

/**
 * What adding a folder did, in one sentence: the sessions that came here, those that went into
 * their own workspaces (a copied ~/.claude holds other projects' too), those refused.
 */
export function addFolderSummary(added: Added): string {
  const { report, elsewhere } = added
  const parts = [`${plural(report.sessions, 'session')} here (${plural(report.messages, 'message')})`]
  const moved = elsewhere.workspaces.reduce((sum, item) => sum + item.sessions, 0)
  if (elsewhere.workspaces.length > 0) parts.push(`${moved} into ${plural(elsewhere.workspaces.length, 'other workspace')}`)
  const readOnly = elsewhere.readOnly.reduce((sum, item) => sum + item.sessions, 0)
  if (elsewhere.readOnly.length > 0) parts.push(`${readOnly} into ${plural(elsewhere.readOnly.length, 'read-only workspace')} (a home or system folder: never rewound)`)
  const refused = elsewhere.refused.reduce((sum, item) => sum + item.sessions, 0)
  if (refused > 0) parts.push(`${refused} not imported (recorded in a folder that cannot be a workspace)`)
  const skipped = report.skipped.length > 0 ? ` ${plural(report.skipped.length, 'line')} skipped.` : ''
  const notJournaled = report.changesNotJournaled.length > 0 ? ` ${plural(report.changesNotJournaled.length, 'file change')} not journaled.` : ''
  const problems = skipped + notJournaled
  return `Imported from ${added.folder.path}: ${parts.join(', ')}.${problems}`
}
