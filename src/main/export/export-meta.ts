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
  return datedFileName(`retrace-${slugOf(doc.session.title) || 'session'}`, format, exportedAt)
}

/** `retrace-workspace-shop-2026-03-10.html` for a workspace's index page. */
export function workspaceFileName(name: string, exportedAt: number): string {
  return datedFileName(`retrace-workspace-${slugOf(name) || 'sessions'}`, 'html', exportedAt)
}

function datedFileName(stem: string, format: ExportFormat, exportedAt: number): string {
  return `${stem}-${new Date(exportedAt).toISOString().slice(0, 10)}.${format}`
}

function slugOf(title: string): string {
  return title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
}
