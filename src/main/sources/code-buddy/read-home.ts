import { createHash } from 'node:crypto'
import { readdirSync, type Dirent } from 'node:fs'
import { join } from 'node:path'
import type { SnapshotSession } from '../adapter'
import { readBranchFile, type BranchFile } from './branch-file'
import { branchSessions, type BranchFolder, type BranchSession } from './branch-records'
import { branchTree } from './branch-tree'
import { sessionRecords } from './session-records'
import { isSessionFileName, readSessionFile, type CodeBuddySession } from './session-file'
import { isInWorkspace } from './workspace-match'

/** Which sessions of the home to read: all of them (the home itself, `import --all`), or one workspace's. */
export type HomeScope = 'all' | { workspace: string }

/**
 * A Code Buddy home (`~/.codebuddy`) read whole, read-only: every session file as a session (a
 * `branchSession` copy as a branch of the session it copied), and every branch folder's branches
 * as their own tree (see branch-records.ts). Anything unreadable is a problem; the rest imports.
 */
export function readCodeBuddyHome(home: string, scope: HomeScope): { sessions: SnapshotSession[]; problems: string[] } {
  const problems: string[] = []
  const all = new Map<string, CodeBuddySession>()
  for (const entry of entries(join(home, 'sessions'))) {
    // Lock files (`<id>.json.lock`, whatever they hold) and anything else are not sessions.
    if (!entry.isFile() || !isSessionFileName(entry.name)) continue
    const read = readSessionFile(join(home, 'sessions', entry.name))
    if (!read.session) problems.push(...read.problems)
    else {
      all.set(read.session.key, read.session)
      // A session of another workspace is that workspace's business, problems included.
      if (inScope(read.session, scope)) problems.push(...read.problems)
    }
  }
  const included = [...all.values()].filter((session) => inScope(session, scope))
  const sessions: Omit<SnapshotSession, 'fingerprint'>[] = sessionFileSessions(included, all, problems)
  sessions.push(...branchFolderSessions(home, all, scope, problems))
  return { sessions: sessions.map(withFingerprint), problems }
}

function inScope(session: CodeBuddySession, scope: HomeScope): boolean {
  return scope === 'all' || (session.workingDirectory !== undefined && isInWorkspace(session.workingDirectory, scope.workspace))
}

/**
 * The session files, a `branchSession` copy after the session it copied: it is a branch of it,
 * forked after the last message it copied (`branchedAt`, inclusive) that still equals the parent's.
 */
function sessionFileSessions(included: CodeBuddySession[], all: Map<string, CodeBuddySession>, problems: string[]): BranchSession[] {
  const inWorkspace = new Set(included.map((session) => session.key))
  const parentOf = new Map<string, CodeBuddySession>()
  for (const session of included) {
    const from = session.branchedFrom
    if (!from) continue
    const parent = all.get(from.sessionId)
    if (!parent || parent === session) {
      problems.push(`${session.label}: "metadata.branchedFrom" names ${parent ? 'the session itself' : `session ${from.sessionId}, which is not in sessions/`}; imported as a session of its own`)
    } else if (!Number.isInteger(from.at) || from.at < 0 || from.at >= parent.messages.length) {
      problems.push(`${session.label}: "metadata.branchedAt" ${from.at} is not a message of ${parent.key} (${parent.messages.length} messages); imported as a session of its own`)
    } else if (inWorkspace.has(parent.key)) {
      // A parent in another workspace cannot be drawn here: the copy stands alone.
      parentOf.set(session.key, parent)
    }
  }
  for (const cycle of cycles(included, parentOf)) {
    problems.push(`sessions/: "metadata.branchedFrom" of ${cycle.map((session) => session.key).join(', ')} name each other; each imported as a session of its own`)
    for (const session of cycle) parentOf.delete(session.key)
  }
  const depth = (session: CodeBuddySession): number => {
    let count = 0
    for (let at = parentOf.get(session.key); at; at = parentOf.get(at.key)) count += 1
    return count
  }
  const uidsOf = new Map<string, string[]>()
  const made: BranchSession[] = []
  for (const session of [...included].sort((a, b) => depth(a) - depth(b) || a.createdAt - b.createdAt || a.key.localeCompare(b.key))) {
    const parent = parentOf.get(session.key)
    const parentUids = parent ? (uidsOf.get(parent.key) ?? []) : []
    const limit = parent && session.branchedFrom ? Math.min(session.branchedFrom.at + 1, parentUids.length) : 0
    let shared = 0
    while (shared < limit && session.messages[shared]?.raw === parent?.messages[shared]?.raw) shared += 1
    const forkedFrom = parent ? { sessionId: parent.key, messageUid: shared > 0 ? (parentUids[shared - 1] ?? null) : null } : null
    const { records, uids } = sessionRecords(session, parentUids.slice(0, shared), forkedFrom)
    uidsOf.set(session.key, uids)
    made.push({ key: session.key, forkedFrom, startedAt: session.createdAt, records })
  }
  return made
}

/**
 * `branches/<session-id>/*.json`, each folder its own tree, with the session it names; a folder
 * whose session is gone is still shown (1 problem), and `default` (no session) belongs to the home.
 * Loose files in `branches/` (the seed's literal layout) are read as one more folder.
 */
function branchFolderSessions(home: string, all: Map<string, CodeBuddySession>, scope: HomeScope, problems: string[]): BranchSession[] {
  const root = join(home, 'branches')
  const rootEntries = entries(root)
  const folders: { name: string; dir: string; files: string[] }[] = rootEntries
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({ name: entry.name, dir: join(root, entry.name), files: jsonFiles(join(root, entry.name)) }))
  const loose = rootEntries.filter((entry) => entry.isFile() && entry.name.endsWith('.json')).map((entry) => entry.name)
  if (loose.length > 0) folders.push({ name: '.', dir: root, files: loose })
  const sessions: BranchSession[] = []
  for (const { name, dir, files } of folders) {
    const owner = all.get(name)
    if (owner ? !inScope(owner, scope) : scope !== 'all') continue
    if (files.length === 0) continue
    if (!owner && name !== 'default' && name !== '.') problems.push(`branches/${name}/: there is no session ${name} in sessions/ (deleted?); its ${files.length} branch file${files.length === 1 ? '' : 's'} are shown on their own`)
    const branches: BranchFile[] = []
    for (const file of files) {
      const read = readBranchFile(join(dir, file), name)
      problems.push(...read.problems)
      if (read.branch) branches.push(read.branch)
    }
    const tree = branchTree(branches)
    problems.push(...tree.problems)
    const folder: BranchFolder = {
      name,
      owner: owner ? (owner.name ?? owner.key) : name === 'default' || name === '.' ? 'no session' : `deleted session ${name}`,
      cwd: owner?.workingDirectory,
      model: owner?.model,
      fallbackTime: owner?.createdAt
    }
    sessions.push(...branchSessions(tree, folder))
  }
  return sessions
}

/** Each cycle of `branchedFrom` links once. */
function cycles(sessions: CodeBuddySession[], parentOf: Map<string, CodeBuddySession>): CodeBuddySession[][] {
  const found: CodeBuddySession[][] = []
  const done = new Set<string>()
  for (const start of sessions) {
    const path: CodeBuddySession[] = []
    for (let at: CodeBuddySession | undefined = start; at && !done.has(at.key); at = parentOf.get(at.key)) {
      const seen = path.indexOf(at)
      if (seen >= 0) {
        found.push(path.slice(seen))
        break
      }
      path.push(at)
    }
    for (const session of path) done.add(session.key)
  }
  return found
}

/** What the session shows, hashed: it is imported again (replacing itself) exactly when this changes. */
function withFingerprint(session: BranchSession): SnapshotSession {
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([session.records, session.forkedFrom, session.mergedInto ?? null]))
    .digest('hex')
  return { ...session, fingerprint }
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))
  } catch {
    return []
  }
}

function jsonFiles(dir: string): string[] {
  return entries(dir)
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => entry.name)
}
