import type { WorkspaceListing } from '../../shared/contract'
import { whyNotAWorkspace } from '../journal/protected-folders'
import { lastActivityOf, modifiedAt } from '../sources/last-activity'
import { discoverRecordedWorkspaces, type FoundFile } from '../sources/recorded-workspaces'
import type { StoredWorkspace } from '../store/repositories/workspaces'
import type { HandlerContext } from './context'
import { folderIsHere, folderName } from '../fs/folder-access'

/**
 * Every workspace: the store's, and every folder the sources' histories record (as `import --all`
 * would group them), merged by path. A folder that is gone is listed like any other, marked.
 */
export async function listAllWorkspaces(ctx: HandlerContext): Promise<WorkspaceListing[]> {
  const homes = [ctx.imports.environment.HOME]
  const byPath = new Map<string, WorkspaceListing>()
  for (const workspace of ctx.store.workspaces.listAll()) byPath.set(workspace.path, fromStore(workspace))
  for (const [cwd, files] of await discoverRecordedWorkspaces(ctx.imports.environment)) {
    const listing = byPath.get(cwd) ?? fromHistory(cwd)
    addRecorded(listing, files)
    byPath.set(cwd, listing)
  }
  const items = [...byPath.values()]
  for (const item of items) {
    item.folderExists = folderIsHere(item.path)
    item.sessionCount = item.sources.reduce((sum, source) => sum + source.sessions, 0)
    // A home or system folder is listed, read-only: its sessions browsable, never rewound.
    if (!item.isDemo) item.refused = whyNotAWorkspace(item.path, { homes })
  }
  // By the agents' activity: `import --all` marks every workspace it makes as opened just now.
  const recency = (item: WorkspaceListing) => item.lastActivityAt ?? item.lastOpenedAt ?? 0
  return items.sort((a, b) => recency(b) - recency(a) || a.path.localeCompare(b.path))
}

function fromStore(workspace: StoredWorkspace): WorkspaceListing {
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
    refused: null
  }
}

function fromHistory(cwd: string): WorkspaceListing {
  return { path: cwd, name: folderName(cwd), workspaceId: null, isDemo: false, folderExists: true, sources: [], sessionCount: 0, lastActivityAt: null, lastOpenedAt: null, refused: null }
}

/**
 * A source's count is the larger of what the store holds and what the histories record (each file
 * a session: a session file, a sub-agent's, a database), so a workspace imported long ago still
 * shows the sessions added since. Its activity is the latest its files record (see last-activity.ts).
 */
function addRecorded(listing: WorkspaceListing, files: FoundFile[]): void {
  const pathsBySource = new Map<string, Set<string>>()
  for (const { adapter, file } of files) {
    const paths = pathsBySource.get(file.source) ?? new Set<string>()
    paths.add(file.path)
    pathsBySource.set(file.source, paths)
    const modified = file.lastActivityAt ?? (adapter.kind === 'snapshot' ? modifiedAt(file.path) : lastActivityOf(file.path))
    if (modified !== null && modified > (listing.lastActivityAt ?? 0)) listing.lastActivityAt = modified
  }
  for (const [source, paths] of pathsBySource) {
    const stored = listing.sources.find((entry) => entry.source === source)
    if (stored) stored.sessions = Math.max(stored.sessions, paths.size)
    else listing.sources.push({ source, sessions: paths.size })
  }
  listing.sources.sort((a, b) => b.sessions - a.sessions || a.source.localeCompare(b.source))
}
