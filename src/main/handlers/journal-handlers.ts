import { RetraceError, type FileChange, type PathRef } from '../../shared/contract'
import { diffVersions, MAX_DIFF_BYTES, isText } from '../journal/file-diff'
import { lineCountsOf, type LineCounts } from '../journal/line-counts'
import type { FileVersion, JournalEntry } from '../store/repositories/journal'
import type { SessionRecord } from '../store/repositories/sessions'
import { compareCheckpoints, versionsAtCheckpoints } from '../journal/checkpoint-compare'
import { displayPath, type RelPath } from '../fs/paths'
import { versionBefore } from '../journal/queries'
import { targetsFromEntries } from '../journal/rewind/plan'
import type { Handlers } from '../rpc/dispatcher'
import type { HandlerContext } from './context'
import { turnShellCommands } from '../sources/turn-shell-commands'

type JournalHandlers = Pick<Handlers, 'changes.ofTurn' | 'changes.shellCommands' | 'changes.between' | 'files.diff' | 'files.history' | 'files.version'>

export const pathRef = (path: Buffer): PathRef => ({ path: displayPath(path), pathId: path.toString('base64') })
export const pathFromId = (pathId: string): RelPath => Buffer.from(pathId, 'base64') as RelPath

/** Each side's turn is one of its checkpoints: before a turn it has, or after its last (turnCount + 1). */
function checkTurns(session: SessionRecord, turn: number, other: SessionRecord, otherTurn: number): void {
  for (const [side, at] of [[session, turn], [other, otherTurn]] as const) {
    if (at > side.turnCount + 1) throw new RetraceError('VALIDATION', `"${side.title}" has ${side.turnCount} turns: its checkpoints run from before turn 1 to after turn ${side.turnCount} (${side.turnCount + 1}), not ${at}.`)
  }
}

export function journalHandlers(ctx: HandlerContext): JournalHandlers {
  const { store, journal } = ctx
  /** Kept in the store once computed (R28), diffed off this thread (R27). */
  const lineCounts = async (before: FileVersion | null, after: FileVersion | null): Promise<LineCounts> => {
    try {
      return await lineCountsOf(store, journal.blobs, before, after)
    } catch {
      // A missing snapshot only costs the line counts here; the rewind refuses it explicitly.
      return { added: null, removed: null, tooManyChanges: false }
    }
  }
  const toChange = async (entry: JournalEntry): Promise<FileChange> => ({
    id: entry.id,
    ...pathRef(entry.path),
    op: entry.op,
    from: entry.fromPath ? pathRef(entry.fromPath) : null,
    before: entry.before,
    after: entry.after,
    observed: entry.observed,
    ...(await lineCounts(entry.before, entry.after))
  })
  /** The other side of a comparison across two sessions: one of the same workspace (undefined: the same session). */
  const otherSession = (session: SessionRecord, toSessionId: string | undefined): SessionRecord | undefined => {
    if (toSessionId === undefined || toSessionId === session.id) return undefined
    const other = store.sessions.require(toSessionId)
    if (other.workspaceId !== session.workspaceId) throw new RetraceError('VALIDATION', `"${other.title}" belongs to another workspace than "${session.title}": only sessions of one workspace compare.`)
    return other
  }

  return {
    'changes.ofTurn': async ({ sessionId, turn }) => {
      const session = store.sessions.require(sessionId)
      const scope = journal.repo.turnScope(session.rowId, turn)
      return { items: scope ? await Promise.all(journal.repo.entriesOfScope(scope.id).map(toChange)) : [] }
    },

    'changes.between': async ({ sessionId, fromTurn, toTurn, toSessionId }) => {
      const session = store.sessions.require(sessionId)
      const other = otherSession(session, toSessionId)
      const withCounts = async ({ path, before, after }: { path: RelPath; before: FileVersion | null; after: FileVersion | null }) => ({ ...pathRef(path), before, after, ...(await lineCounts(before, after)) })
      if (other) {
        checkTurns(session, fromTurn, other, toTurn)
        return { items: await Promise.all(compareCheckpoints(journal.repo, store.sessions, { session, turn: fromTurn }, { session: other, turn: toTurn }).map(withCounts)) }
      }
      if (fromTurn >= toTurn) throw new RetraceError('VALIDATION', `Compare an earlier checkpoint with a later one (before turn ${fromTurn} → before turn ${toTurn}).`)
      // One target per path: its state before the first entry in range and after the last (renames folded).
      const net = targetsFromEntries(journal.repo.sessionEntriesFrom(session.rowId, fromTurn).filter((entry) => entry.turn < toTurn))
      const items = await Promise.all(
        net
          .filter(({ target, expected }) => target?.hash !== expected?.hash || target?.mode !== expected?.mode || target?.kind !== expected?.kind)
          .map(({ path, target: before, expected: after }) => withCounts({ path, before, after }))
      )
      return { items: items.sort((a, b) => a.path.localeCompare(b.path)) }
    },

    'files.diff': ({ sessionId, pathId, fromTurn, toTurn, toSessionId }) => {
      const session = store.sessions.require(sessionId)
      const other = otherSession(session, toSessionId)
      const path = pathFromId(pathId)
      if (other) {
        checkTurns(session, fromTurn, other, toTurn)
        const sides = versionsAtCheckpoints(journal.repo, store.sessions, { session, turn: fromTurn }, { session: other, turn: toTurn }, path)
        if (!sides) throw new RetraceError('NOT_FOUND', `Neither "${session.title}" nor "${other.title}" changed ${displayPath(path)}.`)
        return diffVersions(journal.blobs, sides.before, sides.after)
      }
      const before = versionBefore(journal.repo, session.rowId, path, fromTurn)
      const after = versionBefore(journal.repo, session.rowId, path, toTurn)
      if (before === undefined && after === undefined) {
        throw new RetraceError('NOT_FOUND', `Session "${session.title}" never changed ${displayPath(path)}.`)
      }
      return diffVersions(journal.blobs, before ?? null, after ?? null)
    },

    'changes.shellCommands': ({ sessionId, turn }) => {
      const session = store.sessions.require(sessionId)
      return { items: turnShellCommands(store.messages.turnCallsAndPrompts(session.rowId, turn)) }
    },

    'files.history': ({ workspaceId, pathId }) => {
      const items = journal.repo.pathHistory(workspaceId, pathFromId(pathId)).map((entry) => {
        const session = entry.sessionRowId === null ? null : store.sessions.ref(entry.sessionRowId)
        return {
          sessionId: session?.id ?? null,
          sessionTitle: session?.title ?? null,
          sessionKind: session?.kind ?? null,
          turn: entry.turn,
          op: entry.op,
          before: entry.before,
          after: entry.after,
          observed: entry.observed,
          createdAt: entry.createdAt
        }
      })
      return { items }
    },

    'files.version': ({ workspaceId, hash }) => {
      // Only versions this workspace's journal recorded (or its recovery saved): a hash from elsewhere reads nothing.
      if (!store.journal.recorded(workspaceId, hash) && !store.rewinds.recoverySaved(workspaceId, hash)) throw new RetraceError('NOT_FOUND', 'This workspace has no recorded file version with that hash.')
      const size = journal.blobs.size(hash) ?? 0
      if (size > MAX_DIFF_BYTES) return { size, binary: false, truncated: true, text: null, base64: null }
      const content = journal.blobs.read(hash)
      return isText(content)
        ? { size, binary: false, truncated: false, text: content.toString('utf8'), base64: null }
        : { size, binary: true, truncated: false, text: null, base64: content.toString('base64') }
    }
  }
}
