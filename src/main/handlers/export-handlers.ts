import { ExportService } from '../export/export-service'
import type { Handlers } from '../rpc/dispatcher'
import type { HandlerContext } from './context'

type ExportHandlers = Pick<Handlers, 'export.review' | 'export.render' | 'export.reviewWorkspace' | 'export.renderWorkspace' | 'export.importJson' | 'export.cancel'>

/** Export a session as HTML, Markdown or JSON after a redaction review, and import a JSON export back. */
export function exportHandlers(ctx: HandlerContext, service: ExportService = new ExportService(ctx)): ExportHandlers {
  return {
    'export.review': ({ sessionId, format, withFiles, throughTurn, anonymizePath }) => service.review({ sessionId, format, withFiles, throughTurn, anonymizePath }),
    'export.render': ({ sessionId, format, withFiles, throughTurn, anonymizePath, redact, keep, token }) => service.render({ sessionId, format, withFiles, throughTurn, anonymizePath, redact, keep, token }),
    'export.reviewWorkspace': ({ workspaceId, anonymizePath }) => service.reviewWorkspace({ workspaceId, anonymizePath }),
    'export.renderWorkspace': ({ workspaceId, anonymizePath, redact, keep, token }) => service.renderWorkspace({ workspaceId, anonymizePath, redact, keep, token }),
    'export.importJson': ({ json, workspaceId }) => service.importJson(json, workspaceId),
    'export.cancel': ({ sessionId }) => ({ cancelled: service.cancel(sessionId) })
  }
}
