import { RetraceError, type Message, type SessionDetail, type SessionRef, type Usage } from '../../shared/contract'
import type { FileJournal } from '../journal/file-journal'
import type { Store } from '../store/store'
import { turnAtSeq } from '../../shared/source-labels'
import { sessionDetail } from '../transcripts/session-detail'
import type { SessionRecord } from '../store/repositories/sessions'
import type { ExportDocument, ExportMessage } from './document-schema'
import { exportFileChanges, exportFileContents, PendingDiffs } from './file-changes'
import { costOf } from '../pricing/prices'

/** Read the transcript in pages this long (the same keyset pages the window reads). */
const PAGE = 5_000
/** Parent links are followed at most this far: a corrupt cycle must not loop forever. */
const MAX_ANCESTORS = 1_000

/** What building an export document reads: the transcript and, for files, the journal. */
export interface DocumentContext {
  store: Store
  journal: FileJournal
}

/**
 * Build the export document of one session (a branch is a session too) from one read snapshot
 * of the store: its detail and place in the tree, the whole display transcript, its
 * checkpoints, every file change of its turns with the diff, and with `withFiles` the content of
 * every version those changes name. With `throughTurn` (the export of a turn) only the
 * conversation up to the end of that turn, its checkpoints and its file changes.
 * The diffs are computed after the snapshot, on the diff threads (R27).
 */
export async function buildExportDocument(ctx: DocumentContext, sessionId: string, options: { withFiles: boolean; throughTurn?: number | undefined }): Promise<ExportDocument> {
  const diffs = new PendingDiffs(ctx.journal)
  const doc = exportDocumentOf(ctx, sessionId, options, diffs)
  await diffs.settle()
  return doc
}

/** The document from one read snapshot, its diffs placeholders of `diffs` (filled in once it settles). */
export function exportDocumentOf(ctx: DocumentContext, sessionId: string, options: { withFiles: boolean; throughTurn?: number | undefined }, diffs: PendingDiffs): ExportDocument {
  const { store, journal } = ctx
  return store.snapshot(() => {
    // What `sessions.get` answers, so the export says what the window shows.
    const detail = sessionDetail(store, sessionId)
    const record = store.sessions.require(detail.id)
    const workspace = store.workspaces.get(record.workspaceId)
    if (!workspace) throw new RetraceError('NOT_FOUND', `The workspace of session ${sessionId} is gone; reload the session list.`)
    const through = options.throughTurn
    if (through !== undefined && (through < 1 || through > detail.turnCount)) {
      throw new RetraceError('NOT_FOUND', `Session "${detail.title}" has no turn ${through} (it has ${detail.turnCount}).`)
    }
    const inRange = (turn: number) => through === undefined || turn <= through
    const allChanges = exportFileChanges(diffs, journal.repo.sessionEntriesFrom(record.rowId, 1))
    const fileChanges = through === undefined ? allChanges : allChanges.filter((change) => inRange(change.turn))
    const allMessages = readTranscript(ctx, record.rowId, record.id)
    const messages = through === undefined ? allMessages : allMessages.filter((message) => inRange(message.turn))
    return {
      session: {
        id: detail.id,
        title: detail.title,
        source: detail.source,
        kind: detail.kind,
        status: detail.status,
        model: detail.model,
        cwd: detail.cwd,
        createdAt: detail.createdAt,
        updatedAt: detail.updatedAt,
        messageCount: messages.length,
        turnCount: through ?? detail.turnCount,
        contextStartSeq: Math.min(detail.contextStartSeq, messages.length),
        // Part of a session: what its messages used (the session's own total covers later turns too).
        usage: through === undefined ? detail.usage : usageOf(messages, detail.model)
      },
      workspace: { name: workspace.name, path: workspace.path },
      tree: {
        ancestors: ancestorsOf(ctx, detail),
        forkSeq: detail.forkSeq,
        depth: detail.depth,
        predecessor: detail.predecessor,
        successors: detail.successors,
        // Where each left the session is the window's to link; the export names them.
        children: detail.children.map(({ id, title, kind }) => ({ id, title, kind })),
        agentRewinds: agentRewindsOf(store, detail)
      },
      messages,
      checkpoints: detail.checkpoints.filter((checkpoint) => inRange(checkpoint.turn)),
      fileChanges,
      fileContents: options.withFiles ? exportFileContents(journal, fileChanges) : null
    }
  })
}

/** The lines left by rewinding inside the agent that this session is, or that start from it. */
function agentRewindsOf(store: DocumentContext['store'], detail: SessionDetail): NonNullable<ExportDocument['tree']['agentRewinds']> {
  const self = { id: detail.id, title: detail.title, kind: detail.kind }
  const rewind = (left: SessionRecord) => {
    const turn = left.forkSeq === null ? null : (turnAtSeq(store.checkpoints.list(left.rowId), left.forkSeq) ?? null)
    return { turn, left: { id: left.id, title: left.title, kind: left.kind } }
  }
  if (detail.rewoundInAgent) {
    const record = store.sessions.require(detail.id)
    return detail.parent ? [{ ...rewind(record), from: detail.parent }] : []
  }
  return detail.children
    .map((child) => store.sessions.get(child.id))
    .filter((child): child is SessionRecord => child !== undefined && child.rewoundInAgent)
    .map((child) => ({ ...rewind(child), from: self }))
}

/** What some messages used; a message without a recorded cost is priced as the session is (pricing/prices.ts). */
function usageOf(messages: readonly ExportMessage[], sessionModel: string | null): Usage {
  const total: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null }
  for (const { usage, model } of messages) {
    if (!usage) continue
    total.inputTokens += usage.inputTokens
    total.outputTokens += usage.outputTokens
    total.cacheReadTokens += usage.cacheReadTokens
    total.cacheWriteTokens += usage.cacheWriteTokens
    const cost = usage.costUsd ?? costOf(model ?? sessionModel, usage)
    if (cost !== undefined) total.costUsd = (total.costUsd ?? 0) + cost
  }
  return total
}

function readTranscript(ctx: DocumentContext, sessionRowId: number, sessionUid: string): ExportMessage[] {
  const view = { sessionRowId, sessionUid, transcript: 'display' as const, contextStartSeq: 0 }
  const messages: ExportMessage[] = []
  let bound: number | null = null
  for (;;) {
    const page = ctx.store.messages.page(view, 'after', bound, PAGE)
    for (const message of page.items) messages.push(withoutRowIds(message))
    if (page.afterCursor === null) return messages
    bound = Number(page.afterCursor)
  }
}

function withoutRowIds(message: Message): ExportMessage {
  const { id: _id, sessionId: _sessionId, ...rest } = message
  return rest
}

/** Root first, down to the parent. */
function ancestorsOf(ctx: DocumentContext, detail: SessionDetail): SessionRef[] {
  const chain: SessionRef[] = []
  let parentId = detail.parentId
  const seen = new Set<string>([detail.id])
  while (parentId && !seen.has(parentId) && chain.length < MAX_ANCESTORS) {
    seen.add(parentId)
    const parent = ctx.store.sessions.get(parentId)
    if (!parent) break
    chain.unshift({ id: parent.id, title: parent.title, kind: parent.kind })
    parentId = parent.parentId
  }
  return chain
}
