import { parseArgs } from 'node:util'
import { RetraceError } from '../../shared/contract'
import { createRuntime, type Runtime } from '../runtime/runtime'
import { tuningFrom } from '../runtime/tuning'
import { notOwnerNotice } from '../runtime/data-folder-owner'
import { resolveDataDir } from '../store/data-dir'
import { APP_VERSION } from '../runtime/version'
import { cliCaller } from './call'
import { searchCommand, serveCommand, sessionsCommand, showCommand, type Output } from './commands'
import { checkpointCommand, readHookInput } from './checkpoint-command'
import { exportCommand, importJsonCommand, parseFormat, parseKeep, workspaceExportCommand } from './export-commands'
import { importCommand, parseSource, watchAllCommand } from './import-command'
import { doctorCommand, setClaudeRetentionCommand, undoClaudeRetentionCommand } from './doctor-command'
import { askYesNo } from './ask'
import { blameCommand } from './blame-command'
import { continueCommand } from './continue-command'
import { changesCommand, diffCommand, forkCommand, mergeCommand, parseChoice, parseTurn, rewindCommand, undoCommand, unmergeCommand } from './journal-commands'
import { recoveryListCommand, recoveryVersionCommand, reportStartupRecovery } from './recovery-command'
import { parseChange, restoreCommand } from './restore-command'
import { resolveSessionRef } from './session-ref'
import { workspacesCommand } from './workspaces-command'
import { hooksCommand } from './hooks/hooks-command'
import { hookCheckpointCommand } from './hooks/hook-checkpoint'
import { USAGE } from './usage'
import { currentFolderUnlessRetrace, retraceFolderRefusal } from './default-folder'
import { serviceCommand } from './service-command'

class UsageError extends Error {}

/**
 * Run the CLI with `argv` (without node and script); resolves to the exit code. `interrupt` stands
 * for Ctrl-C in tests; `hookInput` is an agent's stdin that bin/retrace.js read already.
 */
export async function runCli(argv: string[], io: Output, env: NodeJS.ProcessEnv = process.env, interrupt?: AbortSignal, hookInput?: { payload: unknown }): Promise<number> {
  let runtime: Runtime | undefined
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'data-dir': { type: 'string' },
        demo: { type: 'boolean', default: false },
        port: { type: 'string' },
        json: { type: 'boolean', default: false },
        context: { type: 'boolean', default: false },
        workspace: { type: 'string' },
        turn: { type: 'string' },
        file: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        yes: { type: 'boolean', short: 'y', default: false },
        'on-conflict': { type: 'string' },
        'allow-sensitive': { type: 'boolean', default: false },
        'allow-rewind': { type: 'boolean', default: false },
        leave: { type: 'string', multiple: true },
        change: { type: 'string' },
        name: { type: 'string' },
        'with-files': { type: 'boolean', default: false },
        in: { type: 'string' },
        mode: { type: 'string' },
        session: { type: 'string' },
        all: { type: 'boolean', default: false },
        watch: { type: 'boolean', default: false },
        source: { type: 'string' },
        path: { type: 'string' },
        format: { type: 'string' },
        out: { type: 'string', short: 'o' },
        'no-redact': { type: 'boolean', default: false },
        'anonymize-path': { type: 'boolean', default: false },
        keep: { type: 'string', multiple: true },
        force: { type: 'boolean', default: false },
        found: { type: 'boolean', default: false },
        'set-claude-retention': { type: 'string' },
        'undo-claude-retention': { type: 'boolean', default: false },
        hook: { type: 'string' },
        agent: { type: 'string' },
        scope: { type: 'string' },
        'no-mcp': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false }
      }
    })
    const [command, ...rest] = positionals
    if (values.version) return print(io, APP_VERSION)
    if (values.help || !command || command === 'help') return print(io, USAGE)

    const dataDir = resolveDataDir({ flag: values['data-dir'], env })
    // Start-up recovery runs to completion before the command reads or writes anything.
    // `serve` follows opened workspaces live and imports every agent's history in the background.
    const open = async (follow = false, say: Output = io): Promise<Runtime> => {
      // `serve` also takes the turns agents' hooks hand over (runtime/hook-handoff-server.ts).
      const background = follow ? { backgroundImport: true, onBackgroundError: (error: unknown) => io.err(`retrace: a background import failed (tried again later): ${error instanceof Error ? error.message : String(error)}`), serveHooks: { log: (message: string) => io.err(`retrace: ${message}`) } } : {}
      const live = (runtime = createRuntime({ dataDir, host: { binding: 'web' }, version: APP_VERSION, env, followImports: follow, ...background }))
      await reportStartupRecovery(await live.recovery, cliCaller(live), say)
      return live
    }
    const argument = (name: string) => {
      const value = rest.join(' ').trim()
      if (!value) throw new UsageError(`Missing <${name}>. Run \`retrace help\` for usage.`)
      return value
    }
    /** A session argument, which may also be the agent's session id or the start of an id (see session-ref.ts). */
    const sessionArgument = (live: Runtime, name = 'session-id') => resolveSessionRef(live.store.sessions, argument(name))

    /** The current folder as the workspace nobody named, refused where it is Retrace's own (default-folder.ts). */
    const defaultWorkspace = (example: string): string => {
      const folder = currentFolderUnlessRetrace()
      if (folder === null) throw new UsageError(retraceFolderRefusal(example))
      return folder
    }
    // Project-scoped settings go into the workspace's own files: never Retrace's by default.
    const writesProjectFiles = (command === 'hooks' || command === 'mcp') && values.scope === 'project' && (rest[0] === 'install' || rest[0] === 'uninstall')
    const hookWorkspace = values.workspace ?? (writesProjectFiles ? defaultWorkspace('`--workspace ~/code/shop`') : undefined)
    const hookFlags = { agent: values.agent, scope: values.scope, workspace: hookWorkspace, dryRun: values['dry-run'], noMcp: values['no-mcp'], json: values.json }
    if (command === 'mcp' && (rest[0] === 'install' || rest[0] === 'uninstall')) return hooksCommand('mcp', rest[0], hookFlags, { dataDir, env, io })

    switch (command) {
      case 'hooks':
        return hooksCommand('hooks', rest.join(' ').trim(), hookFlags, { dataDir, env, io })
      case 'service': {
        const action = rest.join(' ').trim()
        if (action !== 'install') throw new UsageError(`Use \`retrace service install\` [--dry-run] [--force], not "retrace service ${action || '(nothing)'}".`)
        return serviceCommand({ dataDir, env, dryRun: values['dry-run'], force: values.force, io })
      }
      case 'serve': {
        const port = parsePort(values.port)
        const live = await open(true)
        if (live.dataFolder?.owned === false) io.err(`retrace: ${notOwnerNotice(dataDir, live.dataFolder.owner)}`)
        await live.takesHookTurns // before the URL: whoever waits for it may run a hook next
        // Listen before the URL is printed: whoever reads it may press Ctrl+C at once, and an
        // interrupt with no listener yet would kill the process without a clean shutdown.
        const interrupted = waitForInterrupt()
        const stop = await serveCommand(live, cliCaller(live), { demo: values.demo, port, io })
        await interrupted
        await stop()
        return 0
      }
      case 'workspaces':
        await workspacesCommand(cliCaller(await open()), { json: values.json, io })
        return 0
      case 'sessions':
        await sessionsCommand(cliCaller(await open()), { path: argument('workspace-path'), json: values.json, all: values.all, io })
        return 0
      case 'show': {
        const live = await open()
        await showCommand(cliCaller(live), { sessionId: sessionArgument(live), json: values.json, transcript: values.context ? 'context' : 'display', io })
        return 0
      }
      case 'changes': {
        const live = await open()
        await changesCommand(cliCaller(live), { sessionId: sessionArgument(live), turn: parseTurn(values.turn, false), json: values.json, io })
        return 0
      }
      case 'diff': {
        const file = values.file
        if (!file) throw new UsageError('Missing --file PATH (relative to the workspace).')
        const live = await open()
        await diffCommand(cliCaller(live), { sessionId: sessionArgument(live), turn: parseTurn(values.turn, true) ?? 1, file, io })
        return 0
      }
      case 'blame':
        await blameCommand(cliCaller(await open()), { file: argument('file'), workspace: values.workspace, json: values.json, io })
        return 0
      case 'rewind':
      case 'undo':
      case 'restore': {
        const live = await open()
        const flags = { dryRun: values['dry-run'], yes: values.yes, onConflict: parseChoice(values['on-conflict']), allowSensitive: values['allow-sensitive'], leave: values.leave ?? [], json: values.json, io }
        if (command === 'restore') {
          const sessionId = values.session === undefined ? undefined : resolveSessionRef(live.store.sessions, values.session)
          return await restoreCommand(cliCaller(live), { file: argument('file'), workspace: values.workspace, change: parseChange(values.change), sessionId, turn: parseTurn(values.turn, false), ...flags })
        }
        return command === 'rewind'
          ? await rewindCommand(cliCaller(live), { sessionId: sessionArgument(live), turn: parseTurn(values.turn, true) ?? 1, ...flags })
          : await undoCommand(cliCaller(live), { rewindId: argument('rewind-id'), ...flags })
      }
      case 'fork': {
        const live = await open()
        await forkCommand(cliCaller(live), { sessionId: sessionArgument(live), turn: parseTurn(values.turn, true) ?? 1, name: values.name, withFiles: values['with-files'], onConflict: parseChoice(values['on-conflict']), allowSensitive: values['allow-sensitive'], json: values.json, io })
        return 0
      }
      case 'continue': {
        const live = await open()
        await continueCommand(cliCaller(live), { sessionId: sessionArgument(live), turn: parseTurn(values.turn, false), agent: values.in, json: values.json, io })
        return 0
      }
      case 'merge': {
        const live = await open()
        await mergeCommand(cliCaller(live), { branchId: sessionArgument(live, 'branch-id'), mode: values.mode, json: values.json, io })
        return 0
      }
      case 'unmerge': {
        const live = await open()
        await unmergeCommand(cliCaller(live), { branchId: sessionArgument(live, 'branch-id'), json: values.json, io })
        return 0
      }
      case 'mcp': {
        // Loaded only here: the MCP SDK costs every other command ~0.2 s of start-up.
        const { mcpCommand } = await import('../mcp/mcp-command')
        await mcpCommand(await open(), { allowRewind: values['allow-rewind'], importWaitMs: tuningFrom(env).mcpImportWaitMs, stop: interrupt ?? interruptSignal(), io })
        return 0
      }
      case 'checkpoint': {
        // An agent's hook: silent, exit 0 whatever happens, the outcome in the data folder's hook log.
        if (values.hook !== undefined) return await hookCheckpointCommand({ agent: values.hook, phase: rest.join(' ').trim(), dataDir, env, open: () => open(false, { out: () => undefined, err: () => undefined }), answer: (text) => io.out(text), ...(hookInput ? { input: hookInput } : {}) })
        const hook = values.workspace && values.session ? {} : await readHookInput()
        await checkpointCommand(await open(), { phase: argument('begin|end'), workspace: values.workspace, session: values.session, hook, json: values.json, io })
        return 0
      }
      case 'import': {
        const source = parseSource(values.source)
        if (values.watch) {
          if (!values.all || source || values.path !== undefined || rest.length > 0) throw new UsageError('--watch goes with --all alone: `retrace import --all --watch`.')
          const stop = interrupt ?? interruptSignal()
          await watchAllCommand(await open(), { intervalMs: tuningFrom(env).backgroundImport.intervalMs, stop, json: values.json, io })
          return 0
        }
        const named = rest.join(' ').trim() || undefined
        const workspace = named ?? (values.all ? undefined : defaultWorkspace('`retrace import ~/code/shop`'))
        await importCommand(await open(), { workspace, all: values.all, source, path: values.path, json: values.json, io })
        return 0
      }
      case 'export': {
        const [sessionId, ...extra] = rest
        if (values.workspace !== undefined) {
          if (sessionId) throw new UsageError('Give a <session-id> or --workspace PATH, not both.')
          if (values.format !== undefined && values.format !== 'html') throw new UsageError('A workspace exports as one HTML page: --format html, or leave --format out.')
          const live = await open()
          await workspaceExportCommand(live, cliCaller(live), {
            workspace: values.workspace,
            out: values.out,
            redact: !values['no-redact'],
            keep: parseKeep(values.keep),
            anonymizePath: values['anonymize-path'],
            force: values.force,
            io
          })
          return 0
        }
        if (!sessionId) throw new UsageError('Missing <session-id> (or --workspace PATH). Run `retrace help` for usage.')
        if (extra.length > 0) throw new UsageError(`Unexpected "${extra.join(' ')}": give one session id (and --keep once per finding).`)
        const live = await open()
        await exportCommand(cliCaller(live), {
          sessionId: resolveSessionRef(live.store.sessions, sessionId),
          format: parseFormat(values.format, values.out),
          out: values.out,
          redact: !values['no-redact'],
          withFiles: values['with-files'],
          throughTurn: parseTurn(values.turn, false),
          keep: parseKeep(values.keep),
          anonymizePath: values['anonymize-path'],
          force: values.force,
          io
        })
        return 0
      }
      case 'import-json': {
        // The file is checked before the workspace is asked for: a wrong path is the first thing to say.
        const workspace = (): string => values.workspace ?? defaultWorkspace('`--workspace ~/code/shop`')
        const live = await open()
        await importJsonCommand(live, cliCaller(live), { file: argument('file'), workspace, json: values.json, io })
        return 0
      }
      case 'recovery': {
        const live = await open()
        const rewindId = rest.join(' ').trim()
        if (!rewindId) await recoveryListCommand(cliCaller(live), { json: values.json, io, dataDir: live.store.dataDir })
        else {
          if (!values.file) throw new UsageError('Missing --file PATH: which file of that rewind (see `retrace recovery`).')
          await recoveryVersionCommand(live, cliCaller(live), { rewindId, file: values.file, out: values.out, found: values.found, io })
        }
        return 0
      }
      case 'doctor': {
        const live = await open()
        const setDays = values['set-claude-retention']
        if (setDays !== undefined && values['undo-claude-retention']) throw new UsageError('Give --set-claude-retention DAYS or --undo-claude-retention, not both.')
        if (setDays !== undefined) return await setClaudeRetentionCommand(cliCaller(live), { days: setDays, yes: values.yes, json: values.json, io, confirm: askYesNo })
        if (values['undo-claude-retention']) return await undoClaudeRetentionCommand(cliCaller(live), { json: values.json, io })
        await doctorCommand(live, cliCaller(live), { json: values.json, io })
        return 0
      }
      case 'gc': {
        const { removed, bytes } = (await open()).journal.blobs.collectGarbage()
        io.out(`Removed ${removed} unreferenced snapshot${removed === 1 ? '' : 's'} (${(bytes / 1024 / 1024).toFixed(1)} MiB).`)
        return 0
      }
      case 'search':
        await searchCommand(cliCaller(await open()), { query: argument('query'), workspace: values.workspace, json: values.json, io })
        return 0
      default:
        throw new UsageError(`Unknown command "${command}". Run \`retrace help\` for usage.`)
    }
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      io.err(`retrace: ${(error as Error).message}`)
      return 2
    }
    if (error instanceof RetraceError) {
      io.err(`retrace: ${error.message}`)
      return 1
    }
    io.err(`retrace: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    return 1
  } finally {
    await runtime?.rewinds.settled() // a rewind's set-aside files are removed before the command ends
    runtime?.close()
  }
}

function print(io: Output, text: string): number {
  io.out(text)
  return 0
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return 0
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not "${value}".`)
  return port
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: string }).code
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')
}

/**
 * Aborted at the first SIGINT or SIGTERM; later ones are ignored while the command ends cleanly
 * (a terminal's Ctrl-C reaches both bin/retrace.js and this process, which it forwards signals
 * to, and a service manager may signal the whole group): a second signal must not kill the
 * process before the store is closed.
 */
function interruptSignal(): AbortSignal {
  const controller = new AbortController()
  const stop = () => controller.abort()
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  process.on('SIGHUP', stop)
  return controller.signal
}

function waitForInterrupt(): Promise<void> {
  const signal = interruptSignal()
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
}

/** Entry point of the bundled CLI: bin/retrace.js calls this (with the hook's input, if it read it trying to hand the turn over). */
export function main(hookInput?: { payload: unknown }): void {
  const io: Output = { out: (text) => process.stdout.write(`${text}\n`), err: (text) => process.stderr.write(`${text}\n`) }
  void runCli(process.argv.slice(2), io, process.env, undefined, hookInput).then((code) => {
    process.exitCode = code
  })
}
