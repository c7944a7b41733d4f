import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import type { SessionRecord } from '../store/repositories/sessions'
import type { HistoryFile } from './adapter'
import { readImportState } from './import-state'
import type { ImportDeps } from './import-deps'

/**
 * The session a sub-agent's file hangs below: the imported session its parent id names. When
 * that session has no message yet but its file is there, an empty session is made for it now
 * (Claude Code 2.0.x started its warm-up agents before the first prompt, and left the session's
 * file empty, or wrote it only later): the file's own import fills it when lines arrive, as it
 * looks its session up by the same id. Undefined when no file of that id exists: the sub-agent
 * stays a root that names its missing parent, and is adopted if that session is imported later.
 * `onCreated` is told of a session made here (the importer counts and announces it).
 */
export function parentOfSubAgentFile(
  deps: ImportDeps,
  workspace: { id: number },
  file: HistoryFile,
  cwd: string | null,
  onCreated: (uid: string) => void
): SessionRecord | undefined {
  const parentId = file.parentSessionId
  if (!parentId) return undefined
  const { sessions } = deps.store
  const existing = sessions.bySourceId(workspace.id, file.source, parentId)
  // A parent that is itself a sub-agent is not made empty here: it adopts this one when imported.
  if (existing || !file.parentPath || file.rootSessionId !== undefined || !existsSync(file.parentPath)) return existing
  const uid = randomUUID()
  sessions.insert({
    uid,
    workspaceId: workspace.id,
    source: file.source,
    sourceSessionId: parentId,
    title: '',
    kind: 'main',
    cwd,
    // Its warm-ups start with it: the session is as old as its first sub-agent.
    createdAt: file.startedAt ?? Date.now()
  })
  onCreated(uid)
  return sessions.get(uid)
}

/** The description the parent's Task/Agent call gave a sub-agent file's agent, when its file was read. */
export function parentLinkTitle(deps: ImportDeps, workspace: { id: number }, file: HistoryFile): string | undefined {
  if (!file.parentPath || !file.agentId) return undefined
  const row = deps.store.importFiles.get(workspace.id, file.source, file.parentPath)
  return row ? readImportState(row.importState).linkTitles[file.agentId] : undefined
}

/**
 * A session just made adopts the sessions of its workspace and source that name it as their
 * parent and have none yet (sub-agents imported before it, in this import or an earlier one).
 * Where each started in it is set when the parent's file links them (its tool results).
 */
export function adoptOrphans(deps: ImportDeps, uid: string): void {
  const session = deps.store.sessions.get(uid)
  if (!session?.sourceSessionId) return
  deps.store.sessionLinks.adoptOrphans({
    rowId: session.rowId,
    workspaceId: session.workspaceId,
    source: session.source,
    sourceSessionId: session.sourceSessionId,
    depth: session.depth
  })
}

/**
 * Work out again which of these sessions are warm-ups, then their parents (whose flag depends
 * on their children's). Run after each chunk of a file is written.
 */
export function refreshWarmups(deps: ImportDeps, uids: Iterable<string>): void {
  const links = deps.store.sessionLinks
  const parents = new Set<number>()
  for (const uid of uids) {
    const session = deps.store.sessions.get(uid)
    if (!session) continue
    links.refreshWarmup(session.rowId)
    if (session.parentRowId !== null) parents.add(session.parentRowId)
  }
  for (const rowId of parents) links.refreshWarmup(rowId)
}
