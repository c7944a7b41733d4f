import type { ExportFormat } from '../../shared/contract'
import type { ExportDocument } from './document-schema'

/** What an export says about itself, beside the document: when, by what, and what was hidden. */
export interface ExportMeta {
  exportedAt: number
  appVersion: string
  redaction: { applied: boolean; hidden: number }
}

export const MIME_TYPES: Record<ExportFormat, string> = {
  html: 'text/html; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  json: 'application/json'
}

/** `retrace-fix-the-flaky-date-test-2026-03-10.html`: only [a-z0-9-], so any file system takes it. */
export function exportFileName(doc: ExportDocument, format: ExportFormat, exportedAt: number): string {
  const slug = doc.session.title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
  const date = new Date(exportedAt).toISOString().slice(0, 10)
  return `retrace-${slug || 'session'}-${date}.${format}`
}
