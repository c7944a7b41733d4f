import { z } from 'zod'
import { RetraceError, Timestamp } from '../../shared/contract'
import { ExportDocumentSchema, type ExportDocument } from './document-schema'
import type { ExportMeta } from './export-meta'
import { jsonTextNestsDeeper, MAX_JSON_NESTING, valueNestsDeeper } from '../transcripts/json-nesting'

export const EXPORT_FORMAT_NAME = 'retrace-session-export'
/** Bump when a reader of version N could misread a file; older readers refuse newer files. */
export const EXPORT_FORMAT_VERSION = 1

/**
 * The JSON export, version 1: the export document (messages, checkpoints, file changes with
 * their diffs and, with `--with-files`, file contents) in an envelope that names the format.
 */
export const ExportFileSchema = z
  .object({
    format: z.literal(EXPORT_FORMAT_NAME),
    version: z.literal(EXPORT_FORMAT_VERSION),
    exportedAt: Timestamp,
    generator: z.object({ name: z.literal('Retrace'), version: z.string() }).strict(),
    redaction: z.object({ applied: z.boolean(), hidden: z.number().int().nonnegative() }).strict(),
    document: ExportDocumentSchema
  })
  .strict()
export type ExportFile = z.infer<typeof ExportFileSchema>

export function renderJson(doc: ExportDocument, meta: ExportMeta): string {
  const file: ExportFile = {
    format: EXPORT_FORMAT_NAME,
    version: EXPORT_FORMAT_VERSION,
    exportedAt: meta.exportedAt,
    generator: { name: 'Retrace', version: meta.appVersion },
    redaction: meta.redaction,
    document: doc
  }
  // Indented: people open these in editors and diff them; the size cost is small.
  return `${JSON.stringify(file, null, 1)}\n`
}

/** Read a JSON export, with an error a person can act on for each way it can be wrong. */
/** Why a document nested too deep is refused, naming the first message that does (messages sit 3 levels down). */
function tooDeep(value: unknown): string {
  const messages = (value as { document?: { messages?: unknown } } | null)?.document?.messages
  const at = Array.isArray(messages) ? messages.findIndex((message) => valueNestsDeeper(message, MAX_JSON_NESTING - 3)) : -1
  const where = at >= 0 ? ` (at message ${at + 1})` : ''
  return `This export nests arrays and objects more than ${MAX_JSON_NESTING} levels deep${where}, more than Retrace reads: it was not imported. A file exported by Retrace never does; it may have been edited or made by another program.`
}

export function parseExportJson(text: string): ExportFile {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new RetraceError('VALIDATION', `This file is not valid JSON (${(error as Error).message}). Choose a file exported by Retrace with --format json.`)
  }
  // JSON.parse reads any depth; the validation below walks values recursively and would overflow the stack.
  if (jsonTextNestsDeeper(text)) throw new RetraceError('VALIDATION', tooDeep(value))
  const envelope = z.object({ format: z.unknown(), version: z.unknown() }).safeParse(value)
  if (!envelope.success || envelope.data.format !== EXPORT_FORMAT_NAME) {
    throw new RetraceError('VALIDATION', `This JSON is not a Retrace session export (its "format" is not "${EXPORT_FORMAT_NAME}").`)
  }
  const version = envelope.data.version
  if (typeof version === 'number' && version > EXPORT_FORMAT_VERSION) {
    throw new RetraceError('UNSUPPORTED', `This export is format version ${version}, newer than this Retrace reads (${EXPORT_FORMAT_VERSION}). Update Retrace to import it.`)
  }
  const parsed = ExportFileSchema.safeParse(value)
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || 'file'}: ${issue.message}`)
    throw new RetraceError('VALIDATION', `This Retrace export is damaged or incomplete: ${issues.join('; ')}.`)
  }
  return parsed.data
}
