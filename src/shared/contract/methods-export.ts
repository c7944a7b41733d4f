import { z } from 'zod'
import { SessionIdSchema, WorkspaceIdSchema } from './domain'
import type { MethodSpec } from './method-spec'

const method = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O): MethodSpec<I, O> => ({ input, output })

/** The three export formats: a self-contained HTML page, Markdown, and JSON (which imports back). */
export const ExportFormatSchema = z.enum(['html', 'md', 'json'])
export type ExportFormat = z.infer<typeof ExportFormatSchema>

/**
 * The largest JSON export `export.importJson` takes, in characters. A 10,000-message session
 * with its files is ~50 MB; the bound keeps one call from exhausting memory.
 */
export const MAX_IMPORT_JSON_CHARS = 200 * 1024 * 1024

/** A secret the redaction scan found: hidden in the export unless its id is kept. Never the whole secret. */
export const SecretFindingSchema = z.object({
  /** Stable across scans of the same text, so a review and a later render agree. */
  id: z.string(),
  ruleId: z.string(),
  ruleName: z.string(),
  /** Which string of the export holds it (message text, tool input field, diff, file name…). */
  placeId: z.string(),
  placeLabel: z.string(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  masked: z.string(),
  excerpt: z.string()
})
export type SecretFindingDto = z.infer<typeof SecretFindingSchema>

const ExportRequest = {
  sessionId: SessionIdSchema,
  format: ExportFormatSchema,
  /** JSON only: carry each changed file's content before and after (size-capped), so the import can replay and rewind it. */
  withFiles: z.boolean().default(false),
  /** Export only the conversation up to the end of this turn (an export of a turn), with its file changes. */
  throughTurn: z.number().int().positive().optional(),
  /** Replace the local workspace folder by the workspace's name everywhere (and the home folder by `~`): for sharing. */
  anonymizePath: z.boolean().default(false)
}

const WorkspaceExportRequest = {
  workspaceId: WorkspaceIdSchema,
  /** As for a session: the workspace folder shows as the workspace's name everywhere. */
  anonymizePath: z.boolean().default(false)
}

/** Export methods (merged into the contract in methods.ts). */
export const exportMethods = {
  /**
   * Scan everything an export of the session would carry for secrets, before anything is
   * written: the findings to review and a token naming this state of the session.
   */
  'export.review': method(
    z.object(ExportRequest).strict(),
    z.object({
      /** Pass to `export.render`: it reuses this scan, and refuses if the session changed since. */
      token: z.string(),
      findings: z.array(SecretFindingSchema),
      /** How many strings were scanned (messages, tool input fields, diffs, file names…). */
      scannedTexts: z.number().int().nonnegative()
    })
  ),

  /**
   * The export file's text, with every finding hidden except the kept ones (`redact: false`
   * hides nothing). The web renderer downloads it; the desktop app saves it where the user chose.
   */
  'export.render': method(
    z
      .object({
        ...ExportRequest,
        redact: z.boolean().default(true),
        /** Finding ids the user reviewed as false positives: left as they are. */
        keep: z.array(z.string().min(1).max(200)).max(100_000).default([]),
        /** From `export.review`; without it the session is scanned again. */
        token: z.string().min(1).max(200).optional()
      })
      .strict(),
    z.object({
      fileName: z.string(),
      mimeType: z.string(),
      content: z.string(),
      /** UTF-8 bytes of `content`. */
      size: z.number().int().nonnegative(),
      /** Secrets hidden in this file. */
      redactedCount: z.number().int().nonnegative()
    })
  ),

  /**
   * Import a JSON export (its text) as a new session of the workspace (source
   * `retrace-export`): its messages, checkpoints and file changes, replayable and rewindable
   * where the export carried the files (or this store already has them).
   */
  'export.importJson': method(
    z.object({ workspaceId: WorkspaceIdSchema, json: z.string().min(1).max(MAX_IMPORT_JSON_CHARS) }).strict(),
    z.object({
      sessionId: SessionIdSchema,
      workspaceId: WorkspaceIdSchema,
      title: z.string(),
      messages: z.number().int().nonnegative(),
      checkpoints: z.number().int().nonnegative(),
      fileChanges: z.number().int().nonnegative(),
      /** File changes that could not be journaled, and why (content not in the export, a refused path). */
      skipped: z.array(z.object({ turn: z.number().int(), path: z.string(), reason: z.string() })),
      /** File versions whose content no longer matches its recorded hash (a redacted export): imported as carried. */
      contentsChanged: z.number().int().nonnegative(),
      /** The files of those versions, each once, in the order of their changes. */
      contentsChangedPaths: z.array(z.string())
    })
  ),

  /**
   * Scan every session of a workspace (warm-ups aside) for secrets, as its index page would
   * carry them: the same review as a session's, each place labelled with its session's number.
   */
  'export.reviewWorkspace': method(
    z.object(WorkspaceExportRequest).strict(),
    z.object({ token: z.string(), findings: z.array(SecretFindingSchema), scannedTexts: z.number().int().nonnegative() })
  ),

  /**
   * The workspace's index page (HTML): every session in tree order in one self-contained file,
   * a list at the top linking each to its full transcript below. Redaction as `export.render`.
   */
  'export.renderWorkspace': method(
    z
      .object({
        ...WorkspaceExportRequest,
        redact: z.boolean().default(true),
        keep: z.array(z.string().min(1).max(200)).max(100_000).default([]),
        token: z.string().min(1).max(200).optional()
      })
      .strict(),
    z.object({ fileName: z.string(), mimeType: z.string(), content: z.string(), size: z.number().int().nonnegative(), redactedCount: z.number().int().nonnegative() })
  ),

  /**
   * Stop a running export scan of a session (`export.review` or `export.render`); false when
   * none was running. A workspace's scan runs under `workspace:<workspaceId>`.
   */
  'export.cancel': method(z.object({ sessionId: SessionIdSchema }).strict(), z.object({ cancelled: z.boolean() }))
} as const satisfies Record<string, MethodSpec>
