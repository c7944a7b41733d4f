import { createConnection } from 'node:net'
import { parseArgs } from 'node:util'
import { HANDOFF_VERSION, hookSocketPath, type HandoffRequest } from '../../agent-hooks/hook-handoff'
import { hookWorkingFolder, parseHookInput, readHookStdin } from '../../agent-hooks/hook-input'
import { resolveDataDir } from '../../store/data-dir'

// The hook's side of handing a turn to a running Retrace (agent-hooks/hook-handoff.ts). A build
// entry of its own (out/main/hook-handoff.js) that bin/retrace.js loads before the CLI: what it
// imports is what every hook pays, so it stays this file and a few small modules.

/** A local socket connects at once; one that does not is no running Retrace. */
const CONNECT_MS = 1000
/** The app says it took the turn as soon as its main thread is free: past this, the hook does the turn itself. */
const ACCEPT_MS = 5000
/** Once taken, the turn is the app's however long it takes (an agent times its hooks out well before). */
const ANSWER_MS = 10 * 60 * 1000
/** A reply line is a few bytes: more is not Retrace. */
const MAX_REPLY_BYTES = 64 * 1024

/** Whether the turn was handed over, and if not, the agent's input already read from stdin. */
export type HandOff = { handled: true } | { handled: false; input?: { payload: unknown } }

type Outcome = { taken: true; answer: string | null } | { taken: false }

/** The hook's run, when `argv` is exactly `checkpoint begin|end --hook AGENT [--data-dir DIR]`. */
export function hookRunOf(argv: string[], env: NodeJS.ProcessEnv): { agent: string; phase: 'begin' | 'end'; dataDir: string } | null {
  let parsed
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { hook: { type: 'string' }, 'data-dir': { type: 'string' } } })
  } catch {
    return null // any other flag: the CLI reads it
  }
  const [command, phase, ...rest] = parsed.positionals
  if (command !== 'checkpoint' || (phase !== 'begin' && phase !== 'end') || rest.length > 0 || parsed.values.hook === undefined) return null
  // The CLI resolves the data folder with the same function (--data-dir, RETRACE_HOME, ~/.retrace).
  return { agent: parsed.values.hook, phase, dataDir: resolveDataDir({ flag: parsed.values['data-dir'], env }) }
}

/**
 * An agent's hook: hand the turn to the Retrace that has the data folder open, if one answers
 * on its socket, and print the agent's answer (Cursor's) as the CLI would. Anything short of the
 * app taking the turn — no socket, a refused connection, a busy app, a refused request — leaves
 * it to the CLI, with the input read here.
 */
export async function handOffHook(argv: string[], env: NodeJS.ProcessEnv = process.env, stdin: NodeJS.ReadStream = process.stdin, stdout: NodeJS.WritableStream = process.stdout): Promise<HandOff> {
  const run = hookRunOf(argv, env)
  if (!run || process.platform === 'win32') return { handled: false }
  const input = { payload: parseHookInput(await readHookStdin(stdin)) }
  const projectDirs: HandoffRequest['env'] = {}
  for (const name of ['CLAUDE_PROJECT_DIR', 'GEMINI_PROJECT_DIR'] as const) if (env[name]) projectDirs[name] = env[name]
  const request: HandoffRequest = { version: HANDOFF_VERSION, agent: run.agent, phase: run.phase, payload: input.payload ?? null, cwd: hookWorkingFolder(), env: projectDirs }
  const socketPath = hookSocketPath(run.dataDir)
  const outcome: Outcome = socketPath ? await ask(socketPath, request) : { taken: false }
  if (!outcome.taken) return { handled: false, input }
  if (outcome.answer !== null) stdout.write(`${outcome.answer}\n`)
  return { handled: true }
}

function ask(socketPath: string, request: HandoffRequest): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = createConnection(socketPath)
    let accepted = false
    let received = ''
    let timer: NodeJS.Timeout | undefined
    const finish = (outcome: Outcome) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(outcome)
    }
    // Until the app took the turn, the hook can still do it; after, it only waits for the answer.
    const notTaken = () => finish(accepted ? { taken: true, answer: null } : { taken: false })
    const wait = (ms: number, then: () => void) => {
      clearTimeout(timer)
      timer = setTimeout(then, ms)
    }
    wait(CONNECT_MS, notTaken)
    socket.setEncoding('utf8')
    socket.once('connect', () => {
      wait(ACCEPT_MS, notTaken)
      socket.write(`${JSON.stringify(request)}\n`)
    })
    socket.on('data', (text: string) => {
      received += text
      for (let newline = received.indexOf('\n'); newline !== -1; newline = received.indexOf('\n')) {
        const reply = parseReply(received.slice(0, newline))
        received = received.slice(newline + 1)
        if (!accepted && reply?.accepted === true) {
          accepted = true
          wait(ANSWER_MS, notTaken)
        } else if (accepted && reply && (typeof reply.answer === 'string' || reply.answer === null)) return finish({ taken: true, answer: reply.answer })
        else return notTaken() // refused, or not Retrace's reply
      }
      if (received.length > MAX_REPLY_BYTES) notTaken()
    })
    // The app went away (a socket file a killed app left, or a crash under the capture): the hook does the turn.
    socket.on('error', () => finish({ taken: false }))
    socket.on('close', () => finish({ taken: false }))
  })
}

function parseReply(line: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(line) as unknown
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
