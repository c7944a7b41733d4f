import { lstatSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs'
import { extname, resolve } from 'node:path'
import { MAX_IMPORT_JSON_CHARS, RetraceError, type ExportFormat, type MethodOutput } from '../../shared/contract'
import type { Runtime } from '../runtime/runtime'
import { openWorkspace } from '../handlers/workspace-handlers'
import type { CliCall } from './call'
import type { Output } from './commands'
import { table } from './format'

const FORMAT_OF_EXTENSION: Record<string, ExportFormat> = { '.html': 'html', '.htm': 'html', '.md': 'md', '.markdown': 'md', '.json': 'json' }

/** `--format`, else what `--out`'s extension says, else HTML. */
export function formatOf(format: ExportFormat | undefined, out: string | undefined): ExportFormat {
  return format ?? FORMAT_OF_EXTENSION[extname(out ?? '').toLowerCase()] ?? 'html'
}

/** `--keep a --keep b` and `--keep a,b` both work. */
export function keptFindings(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((value) => value.split(',')).map((id) => id.trim()).filter(Boolean)
}

export interface ExportOptions {
  sessionId: string
  format: ExportFormat
  out: string | undefined
  redact: boolean
  withFiles: boolean
  /** Only the conversation through this turn. */
  throughTurn?: number | undefined
  keep: string[]
  /** Show the workspace folder as its name (and the home folder as `~`). */
  anonymizePath?: boolean
  force: boolean
  io: Output
}

/**
 * `retrace export <session-id>`: redaction on unless --no-redact. The findings go to stderr
 * (rule, place, masked excerpt, and the id to pass to --keep for a false positive); the file
 * is written only once that review is printed, and never over an existing file without --force.
 */
export async function exportCommand(call: CliCall, options: ExportOptions): Promise<void> {
  refuseTakenOut(options)
  const { io } = options
  if (options.withFiles && options.format !== 'json') io.err('retrace: --with-files only changes --format json (the page and the Markdown show diffs); ignored.')
  const request = { sessionId: options.sessionId, format: options.format, withFiles: options.withFiles, ...(options.throughTurn !== undefined ? { throughTurn: options.throughTurn } : {}), anonymizePath: options.anonymizePath ?? false }
  let rendered: MethodOutput<'export.render'>
  if (options.redact) {
    const review = await call('export.review', request)
    printFindings(review, options.keep, io)
    rendered = await call('export.render', { ...request, redact: true, keep: options.keep, token: review.token })
  } else {
    rendered = await call('export.render', { ...request, redact: false })
  }
  writeExport(rendered, options)
}

/**
 * `retrace export --workspace PATH`: the workspace's index page, every session in tree order
 * in one HTML file, after the same review on stderr as a session's export.
 */
export async function workspaceExportCommand(runtime: Runtime, call: CliCall, options: Omit<ExportOptions, 'sessionId' | 'format' | 'withFiles' | 'throughTurn'> & { workspace: string }): Promise<void> {
  refuseTakenOut(options)
  const workspaceId = knownWorkspace(runtime, options.workspace)
  const request = { workspaceId, anonymizePath: options.anonymizePath ?? false }
  let rendered: MethodOutput<'export.renderWorkspace'>
  if (options.redact) {
    const review = await call('export.reviewWorkspace', request)
    printFindings(review, options.keep, options.io)
    rendered = await call('export.renderWorkspace', { ...request, redact: true, keep: options.keep, token: review.token })
  } else {
    rendered = await call('export.renderWorkspace', { ...request, redact: false })
  }
  writeExport(rendered, options)
}

/** A workspace Retrace already has (an export never adds one). */
function knownWorkspace(runtime: Runtime, path: string): number {
  const resolved = resolve(path)
  let found = runtime.store.workspaces.getByPath(resolved)
  if (!found) {
    try {
      found = runtime.store.workspaces.getByPath(realpathSync(resolved))
    } catch {
      // No such folder: only the path as given could name it.
    }
  }
  if (!found) throw new RetraceError('NOT_FOUND', `Retrace has no workspace at ${resolved}. Import it first (retrace import ${resolved}), or see \`retrace workspaces\`.`)
  return found.id
}

/** An --out that exists, refused before the scan: a long review ending in "already exists" is time lost. */
function refuseTakenOut(options: Pick<ExportOptions, 'out' | 'force'>): void {
  if (options.out === undefined || options.force) return
  const out = resolve(options.out)
  if (lstatExists(out)) throw new RetraceError('CONFLICT', takenMessage(out))
}

function lstatExists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

const takenMessage = (out: string) => `${out} already exists. Pass --force to replace it, or choose another --out.`

/** Write the file, never over an existing one without --force, and say what was written. */
function writeExport(rendered: MethodOutput<'export.render'>, options: Pick<ExportOptions, 'out' | 'force' | 'redact' | 'io'>): void {
  const out = resolve(options.out ?? rendered.fileName)
  try {
    writeFileSync(out, rendered.content, { flag: options.force ? 'w' : 'wx' })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') throw new RetraceError('CONFLICT', takenMessage(out))
    throw new RetraceError('IO_ERROR', `Retrace could not write ${out}: ${(error as Error).message}`)
  }
  const hidden = options.redact ? `, ${rendered.redactedCount} secret${rendered.redactedCount === 1 ? '' : 's'} hidden` : ', not redacted'
  options.io.out(`Wrote ${out} (${formatSize(rendered.size)}${hidden}).`)
}

function printFindings({ findings, scannedTexts }: MethodOutput<'export.review'>, keep: string[], io: Output): void {
  const kept = new Set(keep)
  for (const id of kept) if (!findings.some((f) => f.id === id)) io.err(`retrace: --keep ${id} matches no finding of this export; ignored.`)
  if (findings.length === 0) return io.err(`Redaction: the scan found no secrets in the ${scannedTexts} texts this export carries (messages, tool calls, diffs, file names and file contents).`)
  const hidden = findings.filter((f) => !kept.has(f.id)).length
  io.err(`Redaction: ${findings.length} possible secret${findings.length === 1 ? '' : 's'} found; ${hidden} will be hidden.`)
  io.err(table(['id', 'rule', 'place', 'excerpt', ''], findings.map((f) => [f.id, f.ruleName, f.placeLabel, f.excerpt, kept.has(f.id) ? 'kept' : ''])))
  if (hidden > 0) io.err('A false positive? Export again with --keep <id> (repeatable) to leave it as it is.')
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}

/**
 * `retrace import-json FILE --workspace PATH`: a JSON export back as a session of the
 * workspace (the current folder by default), with its files where the export carries them.
 */
export async function importJsonCommand(runtime: Runtime, call: CliCall, options: { file: string; workspace: () => string; json: boolean; io: Output }): Promise<void> {
  const path = resolve(options.file)
  let size: number
  try {
    size = statSync(path).size
  } catch {
    throw new RetraceError('PATH_NOT_FOUND', `There is no file at ${path}. Give the path of a JSON export (retrace export … --format json).`)
  }
  // Bytes bound characters from above, so this refuses only what the import would refuse too.
  if (size > MAX_IMPORT_JSON_CHARS * 4) throw new RetraceError('VALIDATION', `${path} is ${formatSize(size)}; Retrace imports exports up to ${formatSize(MAX_IMPORT_JSON_CHARS)}.`)
  const text = readFileSync(path, 'utf8')
  if (text.length > MAX_IMPORT_JSON_CHARS) throw new RetraceError('VALIDATION', `${path} is ${formatSize(size)}; Retrace imports exports up to ${formatSize(MAX_IMPORT_JSON_CHARS)}.`)
  const workspaceId = openWorkspace(runtime, options.workspace())
  const result = await call('export.importJson', { workspaceId, json: text })
  if (options.json) return options.io.out(JSON.stringify(result, null, 2))
  const workspace = runtime.store.workspaces.get(workspaceId)
  options.io.out(`Imported "${result.title}" as session ${result.sessionId} into ${workspace?.path ?? ''}: ${result.messages} messages, ${result.checkpoints} checkpoints, ${result.fileChanges} file changes.`)
  if (result.contentsChanged > 0) {
    const one = result.contentsChanged === 1
    const files = result.contentsChangedPaths.slice(0, 20).join(', ') + (result.contentsChangedPaths.length > 20 ? `, and ${result.contentsChangedPaths.length - 20} more` : '')
    options.io.out(`${result.contentsChanged} file version${one ? ' was' : 's were'} redacted in the export: imported as ${one ? 'it is' : 'they are'} (${files}).`)
  }
  if (result.skipped.length === 0) return
  options.io.out(`${result.skipped.length} file change${result.skipped.length === 1 ? '' : 's'} could not be journaled:`)
  options.io.out(table(['turn', 'path', 'why'], result.skipped.slice(0, 20).map((s) => [String(s.turn), s.path, s.reason])))
}
