import { RetraceError, type FileChange, type PathRef } from '../../shared/contract'
import { diffVersions, MAX_DIFF_BYTES, isText } from '../journal/file-diff'
import type { JournalEntry } from '../store/repositories/journal'
import { displayPath, type RelPath } from '../fs/paths'
import { versionBefore } from '../journal/queries'
import { targetsFromEntries } from '../journal/rewind/plan'
import type { Handlers } from '../rpc/dispatcher'
import type { HandlerContext } from './context'
import { turnShellCommands } from '../sources/turn-shell-commands'

type JournalHandlers = Pick<Handlers, 'changes.ofTurn' | 'changes.shellCommands' | 'changes.between' | 'files.diff' | 'files.history' | 'files.version'>

export const pathRef = (path: Buffer): PathRef => ({ path: displayPath(path), pathId: path.toString('base64') })
export const pathFromId = (pathId: string): RelPath => Buffer.from(pathId, 'base64') as RelPath

export function journalHandlers(ctx: HandlerContext): JournalHandlers {
  const { store, journal } = ctx
  const toChange = (entry: JournalEntry): FileChange => {
    let counts: { added: number | null; removed: number | null } = { added: null, removed: null }
    try {
      const diff = diffVersions(journal.blobs, displayPath(entry.path), entry.before, entry.after)
      if (!diff.binary && !diff.tooLarge) counts = { added: diff.added, removed: diff.removed }
    } catch {
      // A missing snapshot only costs the line counts here; the rewind refuses it explicitly.
    }
    return { id: entry.id, ...pathRef(entry.path), op: entry.op, from: entry.fromPath ? pathRef(entry.fromPath) : null, before: entry.before, after: entry.after, observed: entry.observed, ...counts }
  }

  return {
    'changes.ofTurn': ({ sessionId, turn }) => {
      const session = store.sessions.require(sessionId)
      const scope = journal.repo.turnScope(session.rowId, turn)
      return { items: scope ? journal.repo.entriesOfScope(scope.id).map(toChange) : [] }
    },

    'changes.between': ({ sessionId, fromTurn, toTurn }) => {
      const session = store.sessions.require(sessionId)
      if (fromTurn >= toTurn) throw new RetraceError('VALIDATION', `Compare an earlier checkpoint with a later one (before turn ${fromTurn} → before turn ${toTurn}).`)
      // One target per path: its state before the first entry in range and after the last (renames folded).
      const net = targetsFromEntries(journal.repo.sessionEntriesFrom(session.rowId, fromTurn).filter((entry) => entry.turn < toTurn))
      const items = net
        .filter(({ target, expected }) => target?.hash !== expected?.hash || target?.mode !== expected?.mode || target?.kind !== expected?.kind)
        .map(({ path, target: before, expected: after }) => {
          let counts: { added: number | null; removed: number | null } = { added: null, removed: null }
          try {
            const diff = diffVersions(journal.blobs, displayPath(path), before, after)
            if (!diff.binary && !diff.tooLarge) counts = { added: diff.added, removed: diff.removed }
          } catch {
            // A missing snapshot only costs the line counts here.
          }
          return { ...pathRef(path), before, after, ...counts }
        })
      return { items: items.sort((a, b) => a.path.localeCompare(b.path)) }
    },

    'files.diff': ({ sessionId, pathId, fromTurn, toTurn }) => {
      const session = store.sessions.require(sessionId)
      const path = pathFromId(pathId)
      const before = versionBefore(journal.repo, session.rowId, path, fromTurn)
      const after = versionBefore(journal.repo, session.rowId, path, toTurn)
      if (before === undefined && after === undefined) {
        throw new RetraceError('NOT_FOUND', `Session "${session.title}" never changed ${displayPath(path)}.`)
      }
      return diffVersions(journal.blobs, displayPath(path), before ?? null, after ?? null)
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
