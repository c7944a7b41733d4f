import { RetraceError } from '../../shared/contract'
import { createRuntime, type Runtime } from '../runtime/runtime'
import { resolveDataDir } from '../store/data-dir'
import { APP_VERSION } from '../runtime/version'
import { cliCaller } from './call'
import type { Output } from './commands'
import { reportStartupRecovery } from './recovery-command'
import { resolveSessionRef } from './session-ref'
import { USAGE } from './usage'
import { currentFolderUnlessRetrace, retraceFolderRefusal } from './default-folder'
import { commandNamed } from './table'
import { commandWord, parseCommand } from './table/parse'
import type { CommandInput } from './table/spec'
import type { OptionName } from './table/options'
import { UsageError } from './usage-error'

/**
 * Run the CLI with `argv` (without node and script); resolves to the exit code: 0 done, 1 the
 * command failed, 2 a usage error. `interrupt` stands for Ctrl-C in tests; `hookInput` is an
 * agent's stdin that bin/retrace.js read already.
 */
export async function runCli(argv: string[], io: Output, env: NodeJS.ProcessEnv = process.env, interrupt?: AbortSignal, hookInput?: { payload: unknown }): Promise<number> {
  let runtime: Runtime | undefined
  try {
    const name = commandWord(argv)
    if (name === undefined || name === 'help') return helpOrVersion(argv, io)
    const spec = commandNamed(name)
    if (!spec) {
      if (argv.includes('--version') || argv.includes('-v')) return print(io, APP_VERSION)
      throw new UsageError(`Unknown command "${name}". Run \`retrace help\` for usage.`)
    }
    const parsed = parseCommand(spec, argv)
    if (parsed.values.version) return print(io, APP_VERSION)
    if (parsed.values.help) return print(io, USAGE)

    const dataDir = resolveDataDir({ flag: parsed.values['data-dir'] as string | undefined, env })
    const input: CommandInput<OptionName> = {
      args: parsed.args,
      values: parsed.values as CommandInput<OptionName>['values'],
      dataDir,
      env,
      io,
      hookInput,
      // Start-up recovery runs to completion before the command reads or writes anything.
      // `serve` follows opened workspaces live and imports every agent's history in the background.
      async open({ follow = false, quiet = false } = {}) {
        const say: Output = quiet ? { out: () => undefined, err: () => undefined } : io
        // `serve` also takes the turns agents' hooks hand over (runtime/hook-handoff-server.ts).
        const background = follow ? { backgroundImport: true, onBackgroundError: (error: unknown) => io.err(`retrace: a background import failed (tried again later): ${error instanceof Error ? error.message : String(error)}`), serveHooks: { log: (message: string) => io.err(`retrace: ${message}`) } } : {}
        const live = (runtime = createRuntime({ dataDir, host: { binding: 'web' }, version: APP_VERSION, env, followImports: follow, ...background }))
        await reportStartupRecovery(await live.recovery, cliCaller(live), say)
        return live
      },
      session: (live, ref) => resolveSessionRef(live.store.sessions, ref),
      defaultWorkspace(example) {
        const folder = currentFolderUnlessRetrace()
        if (folder === null) throw new UsageError(retraceFolderRefusal(example))
        return folder
      },
      interrupt: () => interrupt ?? (io.closed ? AbortSignal.any([interruptSignal(), io.closed]) : interruptSignal())
    }
    return await spec.run(input)
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`retrace: ${error.message}`)
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

/** `retrace`, `retrace help`, `retrace --help`, `retrace --version`. */
function helpOrVersion(argv: readonly string[], io: Output): number {
  return print(io, argv.includes('--version') || argv.includes('-v') ? APP_VERSION : USAGE)
}

function print(io: Output, text: string): number {
  io.out(text)
  return 0
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

/** Entry point of the bundled CLI: bin/retrace.js calls this (with the hook's input, if it read it trying to hand the turn over). */
export function main(hookInput?: { payload: unknown }): void {
  void runCli(process.argv.slice(2), terminalOutput(), process.env, undefined, hookInput).then((code) => {
    process.exitCode = code
  })
}

/**
 * stdout and stderr, written until their reader goes away: `retrace show … | head` closes the
 * pipe after a few lines, and the writes after that fail with EPIPE, which must end the output
 * quietly, not crash the command with a stack trace (a rewind under way still finishes). A
 * command that runs until interrupted (`serve`, `import --all --watch`) stops as at Ctrl-C.
 */
function terminalOutput(): Output {
  const closed = new AbortController()
  const open = { out: true, err: true }
  const watch = (stream: NodeJS.WriteStream, which: 'out' | 'err') =>
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error
      open[which] = false
      if (which === 'out') closed.abort()
    })
  watch(process.stdout, 'out')
  watch(process.stderr, 'err')
  return {
    out: (text) => void (open.out && process.stdout.write(`${text}\n`)),
    err: (text) => void (open.err && process.stderr.write(`${text}\n`)),
    closed: closed.signal
  }
}
