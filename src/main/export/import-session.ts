import { randomUUID } from 'node:crypto'
import { RetraceError, type MethodOutput } from '../../shared/contract'
import type { FileVersion } from '../store/repositories/journal'
import { checkRelPath, type RelPath } from '../fs/paths'
import { whyNotAWorkspace } from '../journal/protected-folders'
import type { ChangeFeed } from '../events/change-feed'
import type { DocumentContext } from './export-document'
import type { ExportDocument, ExportFileChange } from './document-schema'
import { parseExportJson } from './json-format'

/** The source of a session brought back from a JSON export. */
export const IMPORTED_SOURCE = 'retrace-export'

export type ImportedSession = MethodOutput<'export.importJson'>
/** What importing an exported session writes to, and whom it tells. */
type ImportContext = DocumentContext & { feed: ChangeFeed }
type Skipped = ImportedSession['skipped'][number]

/**
 * Bring a JSON export back as a new session of a workspace: messages, checkpoints and usage
 * exactly as exported, and each file change journaled (its original `observed`) when the
 * bytes of both sides are at hand: carried by the export (`--with-files`) or already in this
 * store. Everything is written in one transaction: a failure leaves nothing behind.
 *
 * The session's place in its old tree is not rebuilt (its parent is not in this store); the
 * export's session id is kept as the imported session's source id, so importing the same
 * export twice into one workspace is refused.
 */
export function importExportedSession(ctx: ImportContext, text: string, workspaceId: number): ImportedSession {
  const { store } = ctx
  const doc = parseExportJson(text).document
  checkConsistency(doc)
  const workspace = store.workspaces.get(workspaceId)
  if (!workspace) throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}. Open the folder again, then import.`)
  // A workspace row an earlier version made for the home folder or `/`: its files are never rewound.
  const refusal = whyNotAWorkspace(workspace.path)
  if (refusal) throw new RetraceError('VALIDATION', refusal)
  const existing = store.sessions.bySourceId(workspaceId, IMPORTED_SOURCE, doc.session.id)
  if (existing) throw new RetraceError('CONFLICT', `This export is already imported in this workspace, as "${existing.title}" (${existing.id}).`)

  const uid = randomUUID()
  const { session } = doc
  const outcome = store.transaction(() => {
    const rowId = store.sessions.insert({
      uid,
      workspaceId,
      source: IMPORTED_SOURCE,
      sourceSessionId: session.id,
      title: session.title,
      kind: session.kind,
      model: session.model,
      cwd: session.cwd,
      createdAt: session.createdAt
    })
    for (const message of doc.messages) store.messages.insert({ sessionRowId: rowId, ...message })
    for (const checkpoint of doc.checkpoints) store.checkpoints.restore(rowId, checkpoint)
    store.sessions.setContextStart(rowId, session.contextStartSeq)
    store.sessions.saveProgress(rowId, { messageCount: session.messageCount, turnCount: session.turnCount, updatedAt: session.updatedAt, ...session.usage, model: session.model })
    store.sessions.setStatus(rowId, session.status)
    return journalChanges(ctx, doc, { workspaceId, sessionRowId: rowId })
  })
  ctx.feed.changed(['sessions', 'messages', 'checkpoints', 'files', 'workspaces'], { workspaceId, sessionIds: [uid] })
  return {
    sessionId: uid,
    workspaceId,
    title: session.title,
    messages: doc.messages.length,
    checkpoints: doc.checkpoints.length,
    fileChanges: outcome.journaled,
    skipped: outcome.skipped,
    contentsChanged: outcome.contentsChanged,
    contentsChangedPaths: outcome.contentsChangedPaths
  }
}

function journalChanges(ctx: ImportContext, doc: ExportDocument, scope: { workspaceId: number; sessionRowId: number }) {
  const { journal } = ctx
  const skipped: Skipped[] = []
  const changedHashes = new Set<string>()
  const changedPaths = new Set<string>()
  // By hash: two versions can share bytes but not their kind or mode (a chmod).
  const blobs = new Map<string, { hash: string; size: number } | string>()
  const dictionary = journal.blobs.dictionaries.ofWorkspace(scope.workspaceId)
  const blobOf = (version: FileVersion): { hash: string; size: number } | string => {
    const content = doc.fileContents?.[version.hash]
    if (content && content.encoding !== 'omitted') {
      const bytes = content.encoding === 'utf8' ? Buffer.from(content.text, 'utf8') : Buffer.from(content.base64, 'base64')
      const stored = journal.blobs.putBuffer(bytes, dictionary)
      // A redacted export carries changed text under its original hash: keep what it carries.
      if (stored.hash !== version.hash) changedHashes.add(version.hash)
      return stored
    }
    if (journal.blobs.available(version.hash)) return { hash: version.hash, size: version.size }
    return content ? `the export left its content out (${content.reason})` : 'the export does not carry its content (export with --with-files) and this store does not have it'
  }
  /** The version as this store will hold it, or why its bytes are not at hand. */
  const resolve = (version: FileVersion): FileVersion | string => {
    let blob = blobs.get(version.hash)
    if (blob === undefined) {
      blob = blobOf(version)
      blobs.set(version.hash, blob)
    }
    return typeof blob === 'string' ? blob : { ...version, ...blob }
  }
  let journaled = 0
  for (const change of doc.fileChanges) {
    const refusal = (reason: string) => skipped.push({ turn: change.turn, path: change.path, reason })
    let path: RelPath
    let fromPath: RelPath | null
    try {
      path = checkRelPath(Buffer.from(change.pathId, 'base64'))
      fromPath = change.from ? checkRelPath(Buffer.from(change.from.pathId, 'base64')) : null
    } catch (error) {
      refusal(error instanceof Error ? error.message : String(error))
      continue
    }
    const before = change.before ? resolve(change.before) : null
    const after = change.after ? resolve(change.after) : null
    if (typeof before === 'string' || typeof after === 'string') {
      refusal(typeof before === 'string' ? `before: ${before}` : `after: ${after as string}`)
      continue
    }
    journal.repo.addEntry({ scopeId: journal.turnScope(scope.workspaceId, scope.sessionRowId, change.turn), op: change.op, path, fromPath, before, after, observed: change.observed })
    journaled += 1
    if ([change.before, change.after].some((version) => version && changedHashes.has(version.hash))) changedPaths.add(change.path)
  }
  return { journaled, skipped, contentsChanged: changedHashes.size, contentsChangedPaths: [...changedPaths] }
}

/** What the schema cannot say: the parts of the document agree with each other. */
function checkConsistency(doc: ExportDocument): void {
  const problems: string[] = []
  const { session, messages } = doc
  if (session.messageCount !== messages.length) problems.push(`it says ${session.messageCount} messages but carries ${messages.length}`)
  const badSeq = messages.findIndex((message, i) => message.seq !== i)
  if (badSeq !== -1) problems.push(`message ${badSeq + 1} is out of order`)
  const badTurn = messages.findIndex((message, i) => message.turn > session.turnCount || (i > 0 && message.turn < (messages[i - 1]?.turn ?? 0)))
  if (badTurn !== -1) problems.push(`message ${badTurn + 1} has a turn out of order`)
  if (session.contextStartSeq > session.messageCount) problems.push('its context starts after its last message')
  const turns = new Set<number>()
  for (const checkpoint of doc.checkpoints) {
    if (turns.has(checkpoint.turn) || checkpoint.turn > session.turnCount || checkpoint.messagesBefore > session.messageCount) problems.push(`its checkpoint of turn ${checkpoint.turn} does not fit the transcript`)
    turns.add(checkpoint.turn)
  }
  const badChange = doc.fileChanges.find((change) => !fitsTurns(change, session.turnCount))
  if (badChange) problems.push(`a file change of ${badChange.path} does not fit the session's turns`)
  if (problems.length > 0) throw new RetraceError('VALIDATION', `This Retrace export is inconsistent: ${problems.slice(0, 5).join('; ')}.`)
}

function fitsTurns(change: ExportFileChange, turnCount: number): boolean {
  return change.turn <= turnCount && (change.op === 'rename') === (change.from !== null)
}
