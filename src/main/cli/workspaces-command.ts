import type { WorkspaceListing } from '../../shared/contract'
import type { CliCall } from './call'
import type { Output } from './commands'
import { formatTime, table } from './format'

/**
 * `retrace workspaces [--hidden] [--json]`: every workspace, from Retrace's store and from the
 * agents' histories, most recent activity first; a folder that is gone is marked, not left out,
 * and so is a home or system folder (read-only: its sessions browsable, never rewound). Hidden
 * ones only with --hidden. The histories' index is refreshed first unless it is fresh.
 */
export async function workspacesCommand(call: CliCall, options: { json: boolean; hidden: boolean; io: Output }): Promise<void> {
  const all = (await call('workspaces.listAll', { refresh: 'wait' })).items
  const items = options.hidden ? all : all.filter((item) => !item.hidden)
  const hiddenCount = all.length - items.length
  if (options.json) return options.io.out(JSON.stringify(items, null, 2))
  if (items.length === 0 && hiddenCount > 0) return options.io.out(`No workspaces listed: ${plural(hiddenCount, 'workspace')} hidden (\`retrace workspaces --hidden\` lists them).`)
  if (items.length === 0) {
    const sources = await call('sources.list', {})
    options.io.out('No workspaces yet: no folder was opened, and no agent history was found. Where the sources look:')
    for (const source of sources.items) options.io.out(`  ${source.label}${source.seenOnRealFiles ? '' : ' (from its format\'s description; not yet tested on files it wrote)'}: ${source.looksIn}`)
    return
  }
  const missing = items.filter((item) => !item.folderExists).length
  const readOnly = items.filter((item) => item.refused !== null)
  const notes = [
    ...(missing > 0 ? [`no folder here for ${missing}: still browsable with \`retrace sessions PATH\`, not rewindable`] : []),
    ...(readOnly.length > 0 ? [`${readOnly.length} read-only (a home or system folder: browsable, never rewound)`] : []),
    ...(hiddenCount > 0 ? [`${hiddenCount} hidden: --hidden lists them`] : [])
  ]
  options.io.out(`${plural(items.length, 'workspace')}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}.\n`)
  options.io.out(table(['active', 'sessions', 'cost', 'folder', 'imported', 'sources', 'path'], items.map(row)))
  if (readOnly.length === 0) return
  options.io.out('\nRead-only, never rewound:')
  for (const item of readOnly) options.io.out(`  ${item.refused}`)
}

function row(item: WorkspaceListing): string[] {
  return [
    formatTime(item.lastActivityAt),
    String(item.sessionCount),
    item.costUsd === null ? '—' : `$${item.costUsd.toFixed(2)}`,
    (item.refused !== null ? 'read-only' : item.folderExists ? 'here' : 'missing') + (item.hidden ? ', hidden' : ''),
    item.workspaceId === null ? 'no' : 'yes',
    item.sources.map(({ source, sessions }) => `${source} ${sessions}`).join(', ') || '—',
    item.path
  ]
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
