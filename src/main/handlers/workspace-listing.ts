import type { WorkspaceListing } from '../../shared/contract'
import { whyNotAWorkspace } from '../journal/protected-folders'
import type { RecordedGroup } from '../store/repositories/recorded-files'
import type { ListedWorkspace } from '../store/repositories/workspace-listing'
import type { HandlerContext } from './context'
import { folderIsHere, folderName } from '../fs/folder-access'

/**
 * Every workspace: the store's, and every folder the agents' histories record (as `import --all`
 * would group them), merged by path; a folder that is gone is listed like any other, marked. The
 * histories' part comes from the kept index (sources/recorded-index.ts), never from a scan of
 * every file: `refresh: 'background'` (the window) answers at once and refreshes a stale index
 * behind, the feed saying `workspaces` changed when it found anything; `'wait'` (the CLI) first
 * brings a stale index up to date.
 */
export async function listAllWorkspaces(ctx: HandlerContext, options: { refresh: 'background' | 'wait' }): Promise<WorkspaceListing[]> {
  if (options.refresh === 'wait' && !ctx.recorded.isFresh()) await ctx.recorded.refresh()
  else ctx.recorded.refreshInBackground()
  const homes = [ctx.imports.environment.HOME]
  const hidden = ctx.store.workspaceListing.hidden()
  const byPath = new Map<string, WorkspaceListing>()
  for (const workspace of ctx.store.workspaceListing.listed()) byPath.set(workspace.path, fromStore(workspace))
  for (const group of ctx.store.recordedFiles.groups()) {
    const listing = byPath.get(group.cwd) ?? fromHistory(group.cwd)
    addRecorded(listing, group)
    byPath.set(group.cwd, listing)
  }
  const items = [...byPath.values()]
  for (const item of items) {
    item.folderExists = folderIsHere(item.path)
    item.sessionCount = item.sources.reduce((sum, source) => sum + source.sessions, 0)
    item.sources.sort((a, b) => b.sessions - a.sessions || a.source.localeCompare(b.source))
    item.hidden = hidden.has(item.path)
    // A home or system folder is listed, read-only: its sessions browsable, never rewound.
    if (!item.isDemo) item.refused = whyNotAWorkspace(item.path, { homes })
  }
  // By the agents' activity: `import --all` marks every workspace it makes as opened just now.
  const recency = (item: WorkspaceListing) => item.lastActivityAt ?? item.lastOpenedAt ?? 0
  return items.sort((a, b) => recency(b) - recency(a) || a.path.localeCompare(b.path))
}

function fromStore(workspace: ListedWorkspace): WorkspaceListing {
  return {
    path: workspace.path,
    name: workspace.name,
    workspaceId: workspace.id,
    isDemo: workspace.isDemo,
    folderExists: true,
    sources: workspace.sources.map(({ source, count }) => ({ source, sessions: count })),
    sessionCount: workspace.sessionCount,
    lastActivityAt: workspace.lastActivityAt,
    lastOpenedAt: workspace.lastOpenedAt,
    costUsd: workspace.costUsd,
    hidden: false,
    refused: null
  }
}

function fromHistory(cwd: string): WorkspaceListing {
  return { path: cwd, name: folderName(cwd), workspaceId: null, isDemo: false, folderExists: true, sources: [], sessionCount: 0, lastActivityAt: null, lastOpenedAt: null, costUsd: null, hidden: false, refused: null }
}

/**
 * A source's count is what the store holds (warm-ups left out) plus the files of it no import
 * has read yet (each file a session: a session file, a sub-agent's, a database), so a workspace
 * imported long ago still shows the sessions added since. Its activity is the latest its files record.
 */
function addRecorded(listing: WorkspaceListing, group: RecordedGroup): void {
  if (group.lastActivityAt !== null && group.lastActivityAt > (listing.lastActivityAt ?? 0)) listing.lastActivityAt = group.lastActivityAt
  if (group.notImported === 0) return
  const stored = listing.sources.find((entry) => entry.source === group.source)
  if (stored) stored.sessions += group.notImported
  else listing.sources.push({ source: group.source, sessions: group.notImported })
}
