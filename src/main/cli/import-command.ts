import { coverageLabel } from '../../shared/coverage'
import { whyNotAWorkspaceFor } from '../journal/protected-folders'
import { unreadText } from '../../shared/unread-text'
import type { Runtime } from '../runtime/runtime'
import { folderIsHere, resolveReadableFolder } from '../fs/folder-access'
import { openWorkspacePath } from '../handlers/open-path'
import type { SourceName } from '../sources/adapter'
import type { WorkspaceImportReport } from '../sources/import-service'
import type { ImportReport } from '../sources/import-deps'
import { SOURCE_ADAPTERS } from '../sources/registry'
import type { SpreadReport } from '../sources/source-folders'
import { roundSummary, runImportRounds } from '../sources/import-rounds'
import { dataFolderOwner } from '../runtime/data-folder-owner'
import type { Output } from './commands'

/**
 * `retrace import --all --watch`: import every agent's history, then again every `intervalMs`
 * until `stop` (Ctrl-C, SIGTERM from a service manager), one line per round that added
 * something. For people who never open the window: what the agents write is kept before their
 * clean-up deletes it. Returns once stopped; the caller closes the store.
 */
export async function watchAllCommand(runtime: Runtime, options: { intervalMs: number; stop: AbortSignal; json: boolean; io: Output }): Promise<void> {
  options.io.err(`Importing every agent's history, then again every ${Math.round(options.intervalMs / 1000)} s. Ctrl-C stops.`)
  await runImportRounds(runtime.imports, {
    intervalMs: options.intervalMs,
    signal: options.stop,
    keepAlive: true,
    // The app imports the same histories while it runs: two processes never import at once.
    pausedWhile: () => dataFolderOwner(runtime.store.dataDir) !== null,
    onPause: (paused) => options.io.err(paused ? 'The Retrace app is running and importing: waiting until it closes.' : 'The Retrace app closed: importing again.'),
    onRound: (report) => {
      const summary = roundSummary(report)
      if (summary === null) return
      const at = new Date().toISOString()
      if (options.json) options.io.out(JSON.stringify({ at, files: report.files, sessions: report.sessions, messages: report.messages, fileChanges: report.fileChanges, skipped: report.skipped.length, changesNotJournaled: report.changesNotJournaled.length, sourcesGone: report.sourcesGone }))
      else options.io.out(`${at}  ${summary}`)
    },
    onError: (error) => options.io.err(`retrace: this import round failed (tried again later): ${error instanceof Error ? error.message : String(error)}`)
  })
}

/**
 * `retrace import [WORKSPACE | --all] [--source …] [--json]`: bring in the agents' sessions.
 * Only bytes added since the last import are read, so running it twice adds nothing.
 */
export async function importCommand(
  runtime: Runtime,
  options: { workspace: string | undefined; all: boolean; source: SourceName | undefined; path?: string | undefined; json: boolean; io: Output }
): Promise<void> {
  const sources = options.source ? [options.source] : undefined
  const progress = options.json ? undefined : progressPrinter(options.io)
  const common = { ...(sources ? { sources } : {}), ...(progress ? { onProgress: progress } : {}) }
  if (options.all) {
    const report = await runtime.imports.importAll(common)
    const coverage = runtime.store.workspaceCoverage.ofEvery()
    const workspaces = report.workspaces.map((workspace) => ({
      ...workspace,
      folderExists: folderIsHere(workspace.path),
      coverage: coverage.get(workspace.id) ?? runtime.store.workspaceCoverage.of(workspace.id)
    }))
    if (options.json) return options.io.out(JSON.stringify({ ...report, workspaces }, null, 2))
    const missing = workspaces.filter((workspace) => !workspace.folderExists).length
    options.io.out(
      `${workspaces.length} workspace${workspaces.length === 1 ? '' : 's'} found.` +
        (missing === 0 ? '' : ` ${missing === 1 ? '1 of them has' : `${missing} of them have`} no folder here (deleted, moved, or from another computer): browsable, not rewindable.`)
    )
    printReport(options.io, report)
    const { marked, cleared } = report.sourcesGone
    if (marked > 0) options.io.out(`${marked} imported file${marked === 1 ? ' was' : 's were'} deleted by ${marked === 1 ? 'its agent' : 'their agents'} since: ${marked === 1 ? 'its sessions are' : 'their sessions are'} kept, marked (retrace doctor counts them).`)
    if (cleared > 0) options.io.out(`${cleared} file${cleared === 1 ? '' : 's'} found deleted before ${cleared === 1 ? 'is' : 'are'} back.`)
    printUnplaced(options.io, report.unplaced)
    printReadOnly(options.io, report.readOnly)
    return printRefused(options.io, report.refused)
  }
  const workspaceId = await openWorkspacePath(runtime, options.workspace ?? process.cwd())
  const folder = options.path !== undefined && options.source ? resolveReadableFolder(options.path) : null
  if (folder !== null && options.source) runtime.store.sourceFolders.add(workspaceId, options.source, folder)
  const report = await runtime.imports.importWorkspace(workspaceId, common)
  // An added folder's sessions of other folders go into their own workspaces (as in the window).
  const adapter = SOURCE_ADAPTERS.find((candidate) => candidate.name === options.source)
  const elsewhere = folder !== null && adapter ? await runtime.imports.spreadSourceFolder(workspaceId, adapter, folder, common) : null
  const workspace = runtime.store.workspaces.get(workspaceId)
  const coverage = runtime.store.workspaceCoverage.of(workspaceId)
  if (options.json) return options.io.out(JSON.stringify({ workspace, ...report, coverage, ...(elsewhere ? { elsewhere } : {}) }, null, 2))
  options.io.out(`${workspace?.path ?? ''}`)
  const readOnly = workspace ? whyNotAWorkspaceFor(workspace.path, runtime.imports.environment) : null
  if (readOnly) options.io.out(`Read-only (browse, search, export, fork without files; never rewound): ${readOnly}`)
  printReport(options.io, report)
  if (coverage.recorded + coverage.notCaptured + coverage.uncapturedCommands > 0) options.io.out(`Rewind coverage of its sessions: ${coverageLabel(coverage)} (retrace changes <session> lists what is not).`)
  if (elsewhere) printElsewhere(options.io, elsewhere)
}

/** Where an added folder's other sessions went, and the folders refused as workspaces. */
function printElsewhere(io: Output, elsewhere: SpreadReport): void {
  const moved = elsewhere.workspaces.reduce((sum, item) => sum + item.sessions, 0)
  if (elsewhere.workspaces.length > 0) io.out(`${moved} session${moved === 1 ? '' : 's'} of other folders went into their own workspace${elsewhere.workspaces.length === 1 ? '' : 's'}:`)
  for (const item of elsewhere.workspaces) io.out(`  ${item.path}  ${item.sessions} new`)
  for (const item of elsewhere.readOnly) io.out(`${item.sessions} session${item.sessions === 1 ? '' : 's'} recorded in ${item.path} imported read-only (never rewound): ${item.reason}`)
  for (const item of elsewhere.refused) io.out(`${item.sessions} session${item.sessions === 1 ? '' : 's'} not imported: ${item.reason}`)
}

function printReport(io: Output, report: ImportReport): void {
  io.out(
    `${report.files} file${report.files === 1 ? '' : 's'} read: ${report.sessions} new session${report.sessions === 1 ? '' : 's'}, ` +
      `${report.messages} messages, ${report.toolCalls} tool calls, ${report.fileChanges} file changes.`
  )
  if (report.unread.length > 0) {
    io.out('Records of kinds Retrace does not read yet (the agent\'s format changed; --json says where):')
    for (const tally of report.unread) io.out(`  ${unreadText(tally)}`)
  }
  const notJournaled = report.changesNotJournaled.length
  // Their lines were imported: not skipped lines, but changes a rewind cannot put back.
  if (notJournaled > 0) io.out(`${notJournaled} file change${notJournaled === 1 ? '' : 's'} not journaled (their earlier content is unknown, or outside the workspace; --json lists them).`)
  if (report.skipped.length === 0) return
  io.out(`${report.skipped.length} line${report.skipped.length === 1 ? '' : 's'} skipped (--json lists them all):`)
  for (const line of report.skipped.slice(0, 10)) io.out(`  ${line.file}:${line.offset}  ${line.reason}`)
}

/** Where a source's sessions that record no folder can be imported from instead. */
const UNPLACED_HINTS: Partial<Record<SourceName, (sessions: number) => string>> = {
  'gemini-cli': (n) => `${n} Gemini CLI chat${n === 1 ? '' : 's'}: open ${n === 1 ? 'its' : 'their'} project folder to import ${n === 1 ? 'it' : 'them'} (Gemini CLI recorded only a hash of its path).`
}

/** The sessions --all could not place (no folder recorded), per source, and how to import them. */
function printUnplaced(io: Output, unplaced: WorkspaceImportReport['unplaced']): void {
  for (const { source, sessions } of unplaced) {
    const label = SOURCE_ADAPTERS.find((adapter) => adapter.name === source)?.label ?? source
    io.out(UNPLACED_HINTS[source]?.(sessions) ?? `${sessions} ${label} session${sessions === 1 ? ' records' : 's record'} no folder, so --all cannot tell ${sessions === 1 ? 'its' : 'their'} workspace (--json lists the files).`)
  }
}

/** The folders --all imported read-only (a home or system folder), how many sessions each, and why. */
function printReadOnly(io: Output, readOnly: WorkspaceImportReport['readOnly']): void {
  for (const folder of readOnly) {
    io.out(`${folder.sessions} session${folder.sessions === 1 ? '' : 's'} recorded in ${folder.cwd} imported read-only (browse, search, export, fork without files; never rewound):`)
    io.out(`  ${folder.reason}`)
  }
}

/** The sessions --all did not take, by recorded folder, with the reason and their files. */
function printRefused(io: Output, refused: WorkspaceImportReport['refused']): void {
  const count = refused.reduce((sum, folder) => sum + new Set(folder.sessions.map((session) => `${session.source}\0${session.sessionId}`)).size, 0)
  if (count === 0) return
  io.out(`${count} session${count === 1 ? ' was' : 's were'} not imported:`)
  for (const folder of refused) {
    io.out(`  ${folder.reason}`)
    for (const session of folder.sessions) io.out(`    ${session.source} ${session.sessionId}  ${session.file}`)
  }
}

/** One line to stderr per file, only when there are several (a quick re-import stays quiet). */
function progressPrinter(io: Output): (progress: { done: number; total: number; file: string }) => void {
  return ({ done, total, file }) => {
    if (total > 1 && file) io.err(`[${done + 1}/${total}] ${file}`)
  }
}
