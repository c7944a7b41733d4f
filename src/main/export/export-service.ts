import { createHash } from 'node:crypto'
import { RetraceError, type ExportFormat, type MethodOutput } from '../../shared/contract'
import type { ChangeFeed } from '../events/change-feed'
import type { DocumentContext } from './export-document'
import type { ExportDocument } from './document-schema'
import { anonymizeWorkspacePath } from './anonymize-path'
import { documentTexts, redactDocument } from './document-texts'
import { buildExportDocument } from './export-document'
import { exportFileName, MIME_TYPES, workspaceFileName, type ExportMeta } from './export-meta'
import { renderWorkspaceHtml } from './html-workspace'
import { buildWorkspaceExport, redactWorkspace, workspaceTexts, type WorkspaceExport } from './workspace-export'
import { renderHtml } from './html'
import { importExportedSession, type ImportedSession } from './import-session'
import { renderJson } from './json-format'
import { renderMarkdown } from './markdown'
import { scanForSecrets, type SecretFinding } from './redaction'

export interface ExportRequest {
  sessionId: string
  format: ExportFormat
  withFiles: boolean
  /** Only the conversation up to the end of this turn (the export of a turn). */
  throughTurn?: number | undefined
  /** Show the local workspace folder as the workspace's name (and the home folder as `~`). */
  anonymizePath?: boolean | undefined
}

export interface WorkspaceExportRequest {
  workspaceId: number
  anonymizePath: boolean
}

export type ExportReview = MethodOutput<'export.review'>
export type RenderedExport = MethodOutput<'export.render'>
export type Scanner = typeof scanForSecrets

/** Reviews kept for a following render (one per open export dialog is plenty). */
const KEPT_REVIEWS = 8

const RENDERERS: Record<ExportFormat, (doc: ExportDocument, meta: ExportMeta) => string> = {
  html: renderHtml,
  md: renderMarkdown,
  json: renderJson
}

/** What the export service needs: the store and journal it reads, the feed it reports progress on, the app version it stamps. */
export interface ExportDeps extends DocumentContext {
  feed: ChangeFeed
  version: string
}

/**
 * Export a session: review what redaction will hide, then render the file with the findings
 * the user did not keep hidden. The review's token names the document it scanned; a render
 * with that token reuses the scan, and refuses if the session changed in between (what was
 * reviewed must be what is written).
 */
export class ExportService {
  private readonly reviews = new Map<string, SecretFinding[]>()
  private readonly running = new Map<string, AbortController>()

  constructor(
    private readonly ctx: ExportDeps,
    private readonly scan: Scanner = scanForSecrets,
    private readonly now: () => number = Date.now
  ) {}

  async review(request: ExportRequest): Promise<ExportReview> {
    // Cancellable from the start: building the document waits for its diffs (R27).
    const controller = this.start(request.sessionId)
    try {
      const doc = await this.document(request)
      const token = tokenOf(doc)
      const texts = documentTexts(doc)
      const findings = await this.scanTexts(request.sessionId, texts, controller)
      this.remember(token, findings)
      return { token, findings, scannedTexts: texts.length }
    } finally {
      this.finish(request.sessionId, controller)
    }
  }

  async render(request: ExportRequest & { redact: boolean; keep: readonly string[]; token?: string | undefined }): Promise<RenderedExport> {
    const doc = await this.document(request)
    let hidden: SecretFinding[] = []
    if (request.redact) {
      const token = tokenOf(doc)
      if (request.token !== undefined && request.token !== token) {
        throw new RetraceError('CONFLICT', 'What this export would carry is not what was reviewed: the session changed since (new messages or file changes), or the review was for another format or file choice. Review the export again.')
      }
      const findings = (request.token !== undefined ? this.reviews.get(token) : undefined) ?? (await this.scanTexts(request.sessionId, documentTexts(doc)))
      const keep = new Set(request.keep)
      hidden = findings.filter((finding) => !keep.has(finding.id))
    }
    const exported = redactDocument(doc, hidden)
    const exportedAt = this.now()
    const meta: ExportMeta = { exportedAt, appVersion: this.ctx.version, redaction: { applied: request.redact, hidden: hidden.length } }
    const content = RENDERERS[request.format](exported, meta)
    return {
      fileName: exportFileName(exported, request.format, exportedAt),
      mimeType: MIME_TYPES[request.format],
      content,
      size: Buffer.byteLength(content, 'utf8'),
      redactedCount: hidden.length
    }
  }

  /** Scan every session of a workspace, as its index page would carry them. */
  async reviewWorkspace(request: WorkspaceExportRequest): Promise<ExportReview> {
    const key = workspaceScanKey(request.workspaceId)
    const controller = this.start(key)
    try {
      const exported = await buildWorkspaceExport(this.ctx, request.workspaceId, request)
      const token = tokenOf(exported)
      const texts = workspaceTexts(exported)
      const findings = await this.scanTexts(key, texts, controller)
      this.remember(token, findings)
      return { token, findings, scannedTexts: texts.length }
    } finally {
      this.finish(key, controller)
    }
  }

  /** The workspace's index page: every session in tree order, the reviewed findings hidden but the kept ones. */
  async renderWorkspace(request: WorkspaceExportRequest & { redact: boolean; keep: readonly string[]; token?: string | undefined }): Promise<RenderedExport> {
    const exported = await buildWorkspaceExport(this.ctx, request.workspaceId, request)
    let hidden: SecretFinding[] = []
    if (request.redact) {
      const token = tokenOf(exported)
      if (request.token !== undefined && request.token !== token) {
        throw new RetraceError('CONFLICT', 'What this export would carry is not what was reviewed: a session of the workspace changed since. Review the export again.')
      }
      const findings = (request.token !== undefined ? this.reviews.get(token) : undefined) ?? (await this.scanTexts(workspaceScanKey(request.workspaceId), workspaceTexts(exported)))
      const keep = new Set(request.keep)
      hidden = findings.filter((finding) => !keep.has(finding.id))
    }
    const exportedAt = this.now()
    const meta: ExportMeta = { exportedAt, appVersion: this.ctx.version, redaction: { applied: request.redact, hidden: hidden.length } }
    const content = renderWorkspaceHtml(redactWorkspace(exported, hidden), meta)
    return { fileName: workspaceFileName(exported.workspace.name, exportedAt), mimeType: MIME_TYPES.html, content, size: Buffer.byteLength(content, 'utf8'), redactedCount: hidden.length }
  }

  importJson(json: string, workspaceId: number): ImportedSession {
    return importExportedSession(this.ctx, json, workspaceId)
  }

  /** Stop the session's running scan; it rejects with CANCELLED. */
  cancel(sessionId: string): boolean {
    const controller = this.running.get(sessionId)
    if (!controller) return false
    controller.abort(new RetraceError('CANCELLED', 'The export was cancelled; nothing was written.'))
    return true
  }

  /** Only JSON carries file contents: the page and the Markdown show diffs. */
  private async document(request: ExportRequest): Promise<ExportDocument> {
    const doc = await buildExportDocument(this.ctx, request.sessionId, { withFiles: request.format === 'json' && request.withFiles, throughTurn: request.throughTurn })
    // Before the review: what is scanned, reviewed and written is the document without the path.
    return request.anonymizePath ? anonymizeWorkspacePath(doc) : doc
  }

  /** A scan (or a review) under `key` starts: the one running under it is cancelled. */
  private start(key: string): AbortController {
    this.running.get(key)?.abort(new RetraceError('CANCELLED', 'A newer export of this session replaced this one.'))
    const controller = new AbortController()
    this.running.set(key, controller)
    return controller
  }

  private finish(key: string, controller: AbortController): void {
    if (this.running.get(key) === controller) this.running.delete(key)
  }

  private async scanTexts(sessionId: string, texts: ReturnType<typeof documentTexts>, controller: AbortController = this.start(sessionId)): Promise<SecretFinding[]> {
    try {
      controller.signal.throwIfAborted()
      return await this.scan(texts, {
        signal: controller.signal,
        onProgress: (done, total) => this.ctx.feed.publish({ name: 'export.progress', payload: { sessionId, done, total } })
      })
    } catch (error) {
      if (controller.signal.aborted) throw controller.signal.reason instanceof RetraceError ? controller.signal.reason : new RetraceError('CANCELLED', 'The export was cancelled.')
      throw error
    } finally {
      this.finish(sessionId, controller)
    }
  }

  private remember(token: string, findings: SecretFinding[]): void {
    this.reviews.delete(token)
    this.reviews.set(token, findings)
    for (const old of this.reviews.keys()) {
      if (this.reviews.size <= KEPT_REVIEWS) break
      this.reviews.delete(old)
    }
  }
}

/** The key a workspace's scan runs (and is cancelled, and reports progress) under. */
export function workspaceScanKey(workspaceId: number): string {
  return `workspace:${workspaceId}`
}

/** Names one state of one document: any change to what an export would carry changes it. */
function tokenOf(doc: ExportDocument | WorkspaceExport): string {
  return createHash('sha256').update(JSON.stringify(doc)).digest('base64url').slice(0, 43)
}
