import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../cli/main'
import { createRuntime } from '../../runtime/runtime'
import { agentWorkspace, type AgentWorkspace } from '../testing/agent-workspace'

/**
 * A large rewind killed part-way (SIGKILL, a real child process), then the user works on for a
 * while — edits a file the rewind had already written, edits one it had not reached, deletes
 * one, creates one — and only then starts Retrace again, in each of the ways a user can. The
 * next start must finish the rewind by rolling it back, and must not cost the user a byte of
 * what they did after the crash: it stays on disk, is saved in the store, and is reported.
 */

const ROOT = resolve(__dirname, '../../../..')
const VITE_NODE = join(ROOT, 'node_modules/vite-node/dist/cli.mjs')
const CRASH_CHILD = join(__dirname, 'testing/crash-child.ts')
const CLI_CHILD = join(ROOT, 'src/main/testing/cli-process.ts')

const FILES = 240 // more than a rewind needs to be batched onto its writer threads (apply.ts BATCH_FROM_WRITES)
const name = (i: number) => `src/f${String(i).padStart(3, '0')}.txt`
const created = (i: number) => `new/c${i}.txt`
const deleted = (i: number) => `old/d${i}.txt`

/** Each path as the agent left it (what the rewind replaces) and as it was before the turn (what the rewind writes). */
const AFTER_TURN = new Map<string, string | null>()
const BEFORE_TURN = new Map<string, string | null>()
for (let i = 0; i < FILES; i++) {
  BEFORE_TURN.set(name(i), `before ${i}\n`)
  AFTER_TURN.set(name(i), `after ${i}\n`)
}
for (let i = 0; i < 10; i++) {
  BEFORE_TURN.set(created(i), null)
  AFTER_TURN.set(created(i), `agent created ${i}\n`)
  BEFORE_TURN.set(deleted(i), `to be deleted ${i}\n`)
  AFTER_TURN.set(deleted(i), null)
}

function workspaceAfterTurn(): AgentWorkspace {
  const initial: Record<string, string> = {}
  for (const [path, content] of BEFORE_TURN) if (content !== null) initial[path] = content
  const ws = agentWorkspace(initial)
  ws.agent.turn()
  for (const [path, content] of AFTER_TURN) {
    if (content === null) ws.agent.remove(path)
    else ws.agent.write(path, content)
  }
  return ws
}

type KillPoint = { label: string; args: string[] }
/** Main-thread calls one file at a time (early, and a third of the way), and a writer lane's calls in a batched rewind. */
const KILL_POINTS: KillPoint[] = [
  { label: 'early, one by one', args: ['30', '100000'] },
  { label: 'a third in, one by one', args: ['400', '100000'] },
  { label: 'on a writer lane', args: ['250', '1', 'lane:0'] }
]

function crash(ws: AgentWorkspace, kill: KillPoint): void {
  const child = spawnSync(process.execPath, [VITE_NODE, CRASH_CHILD, ws.rt.store.dataDir, ws.writer.id, ...kill.args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 })
  expect(child.signal, `${kill.label}: the rewind must be killed mid-way\n${child.stdout}${child.stderr}`).toBe('SIGKILL')
  expect(readdirSync(join(ws.rt.store.dataDir, 'intents')).filter((file) => file.endsWith('.json')), kill.label).toHaveLength(1)
}

/** What the user does after the crash: the paths they touch and what each must hold afterwards (null: absent). */
function userWorksOn(ws: AgentWorkspace): Map<string, string | null> {
  const rewound = (path: string) => ws.text(path) === BEFORE_TURN.get(path) && BEFORE_TURN.get(path) !== AFTER_TURN.get(path)
  const files = [...AFTER_TURN.keys()].filter((path) => path.startsWith('src/'))
  const written = files.filter(rewound)
  const notReached = files.filter((path) => !rewound(path))
  const touched = new Map<string, string | null>()
  const edit = (path: string | undefined, content: string) => {
    if (path === undefined) return
    mkdirSync(dirname(join(ws.root, path)), { recursive: true })
    writeFileSync(join(ws.root, path), content)
    touched.set(path, content)
  }
  edit(written[0] ?? notReached.at(-3), 'the user edited a file the rewind had written\n')
  edit(notReached.at(-1), 'the user edited a file the rewind had not reached\n')
  const removed = written[1] ?? notReached.at(-2)
  if (removed !== undefined) {
    rmSync(join(ws.root, removed))
    touched.set(removed, null)
  }
  // A new file where nothing is now: a path the rewind emptied (an agent's file it deleted), or one it had yet to fill.
  const empty = [...AFTER_TURN.keys()].find((path) => !path.startsWith('src/') && ws.text(path) === null)
  edit(empty, 'the user created this after the crash\n')
  return touched
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

function expectNothingLost(ws: AgentWorkspace, touched: Map<string, string | null>, where: string): void {
  for (const [path, expected] of AFTER_TURN) {
    const want = touched.has(path) ? touched.get(path) : expected
    expect(ws.text(path), `${where}: ${path}`).toBe(want)
  }
  for (const content of touched.values()) if (content !== null) expect(ws.journal.blobs.has(sha256(content)), `${where}: the user's work saved`).toBe(true)
  expect(readdirSync(ws.root, { recursive: true, encoding: 'utf8' }).filter((file) => file.includes('.retrace-tmp')), where).toEqual([])
  expect(readdirSync(join(ws.rt.store.dataDir, 'intents')), where).toEqual([])
  const [recovery] = ws.rt.store.rewinds.recoveries()
  expect(recovery?.rewind.status, where).toBe('rolled_back')
  expect(recovery?.conflicts.map((conflict) => conflict.path.toString()).sort(), `${where}: the files left as found`).toEqual([...touched.keys()].sort())
  for (const conflict of recovery?.conflicts ?? []) {
    const path = conflict.path.toString()
    expect(conflict.found === null, `${where}: ${path} found deleted`).toBe(touched.get(path) === null)
    expect(conflict.before?.hash ?? null, `${where}: ${path}'s version before the rewind`).toBe(AFTER_TURN.get(path) ? sha256(AFTER_TURN.get(path) ?? '') : null)
  }
}

const captured = () => {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (text: string) => out.push(text), err: (text: string) => err.push(text) } }
}

/** The next start, in each of the ways a user makes one. Resolves once that start has served its first answer. */
const NEXT_STARTS: Record<string, (ws: AgentWorkspace, touched: Map<string, string | null>) => Promise<void>> = {
  'retrace show': async (ws, touched) => {
    const { io, out, err } = captured()
    expect(await runCli(['show', ws.writer.id, '--data-dir', ws.rt.store.dataDir], io, {})).toBe(0)
    expect(out.join('\n')).toContain('do something')
    // The recovery is said on stderr, each file left as found with the way to its earlier version.
    const said = err.join('\n')
    expect(said).toMatch(/was interrupted; it was rolled back/)
    const rewindId = ws.rt.store.rewinds.recoveries()[0]?.rewind.id ?? ''
    for (const path of touched.keys()) {
      expect(said).toContain(path)
      if (AFTER_TURN.get(path) !== null) expect(said).toContain(`retrace recovery ${rewindId} --file ${path} --out FILE`)
    }
  },
  'retrace sessions': async (ws) => {
    const { io, out } = captured()
    expect(await runCli(['sessions', ws.root, '--data-dir', ws.rt.store.dataDir], io, {})).toBe(0)
    expect(out.join('\n')).toContain('agent')
  },
  'retrace rewind --dry-run': async (ws) => {
    const { io, out } = captured()
    expect(await runCli(['rewind', ws.writer.id, '--turn', '1', '--dry-run', '--data-dir', ws.rt.store.dataDir], io, {})).toBe(0)
    expect(out.join('\n')).toMatch(/restore|conflict/)
  },
  "the app's start": async (ws) => {
    const app = createRuntime({ dataDir: ws.rt.store.dataDir, host: { binding: 'electron' }, version: 'test' })
    try {
      const { items } = await app.handlers['rewind.recoveries']({ unseenOnly: true }) // the window's first question
      expect(items).toHaveLength(1)
    } finally {
      app.close()
    }
  },
  'retrace serve': async (ws) => {
    const { items } = await underServe(ws.rt.store.dataDir, (rpc) => rpc('rewind.recoveries', { unseenOnly: true }) as Promise<{ items: unknown[] }>)
    expect(items).toHaveLength(1)
  }
}

describe('recovery of an interrupted rewind keeps what the user did after the crash', () => {
  it.each(Object.keys(NEXT_STARTS))('%s: at each kill point, edits, deletes and new files survive; the rest is rolled back', async (start) => {
    let reachedWrittenFiles = false
    for (const kill of KILL_POINTS) {
      const ws = workspaceAfterTurn()
      try {
        crash(ws, kill)
        const touched = userWorksOn(ws)
        reachedWrittenFiles ||= [...touched.values()].includes('the user edited a file the rewind had written\n')
        await NEXT_STARTS[start]?.(ws, touched)
        expectNothingLost(ws, touched, `${start}, killed ${kill.label}`)
      } finally {
        ws.dispose()
      }
    }
    expect(reachedWrittenFiles, 'some kill point came after the rewind had written files').toBe(true)
  }, 240_000)

  it('writes either version of a file recovery left as found, on request, never over a file', async () => {
    const ws = workspaceAfterTurn()
    try {
      crash(ws, KILL_POINTS[1] as KillPoint)
      const touched = userWorksOn(ws)
      const { io } = captured()
      expect(await runCli(['sessions', ws.root, '--data-dir', ws.rt.store.dataDir], io, {})).toBe(0)
      const [edited, content] = [...touched].find(([, value]) => value !== null && value.includes('had written')) ?? ['', '']
      const rewindId = ws.rt.store.rewinds.recoveries()[0]?.rewind.id ?? ''
      const out = join(dirname(ws.root), 'before-rewind.txt')
      expect(await runCli(['recovery', rewindId.slice(0, 8), '--file', edited, '--out', out, '--data-dir', ws.rt.store.dataDir], io, {})).toBe(0)
      expect(readFileSync(out, 'utf8')).toBe(AFTER_TURN.get(edited))
      const found = join(dirname(ws.root), 'found.txt')
      expect(await runCli(['recovery', rewindId, '--file', edited, '--found', '--out', found, '--data-dir', ws.rt.store.dataDir], io, {})).toBe(0)
      expect(readFileSync(found, 'utf8')).toBe(content)
      const refused = captured()
      expect(await runCli(['recovery', rewindId, '--file', edited, '--out', out, '--data-dir', ws.rt.store.dataDir], refused.io, {})).toBe(1)
      expect(refused.err.join('\n')).toContain('exists')
      // Listed until dismissed in the window; the CLI lists them all.
      const listed = captured()
      expect(await runCli(['recovery', '--json', '--data-dir', ws.rt.store.dataDir], listed.io, {})).toBe(0)
      expect(JSON.parse(listed.out.join('\n'))).toEqual([expect.objectContaining({ rewindId, seen: false, conflicts: expect.arrayContaining([expect.objectContaining({ path: edited, saved: true })]) as unknown })])
      expect(await ws.rt.handlers['rewind.dismissRecovery']({ rewindId })).toEqual({ dismissed: true })
      expect((await ws.rt.handlers['rewind.recoveries']({ unseenOnly: true })).items).toEqual([])
    } finally {
      ws.dispose()
    }
  }, 120_000)
})

/** Start `retrace serve` on `dataDir` in a process of its own, ask it one thing once it is serving, and stop it. */
async function underServe<T>(dataDir: string, ask: (rpc: (method: string, input: object) => Promise<unknown>) => Promise<T>): Promise<T> {
  const child = spawn(process.execPath, [VITE_NODE, CLI_CHILD, 'serve', '--port', '0', '--data-dir', dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  try {
    const url = await new Promise<URL>((resolveUrl, reject) => {
      let stdout = ''
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        const match = /serving (http:\/\/\S+)/.exec(stdout)
        if (match?.[1]) resolveUrl(new URL(match[1]))
      })
      child.on('exit', (code) => reject(new Error(`serve exited (${code}) before serving: ${stderr}`)))
    })
    const token = url.searchParams.get('token') ?? ''
    const rpc = (method: string, input: object) =>
      new Promise<unknown>((resolveReply, reject) => {
        const req = request({ host: url.hostname, port: url.port, method: 'POST', path: `/api/rpc/${method}`, headers: { Host: url.host, Origin: url.origin, 'X-Retrace-Token': token, 'Content-Type': 'application/json' } }, (res) => {
          let body = ''
          res.on('data', (chunk: Buffer) => (body += chunk.toString()))
          res.on('end', () => {
            const reply = JSON.parse(body) as { ok: boolean; data?: unknown; error?: { message: string } }
            if (reply.ok) resolveReply(reply.data)
            else reject(new Error(reply.error?.message))
          })
        })
        req.on('error', reject)
        req.end(JSON.stringify(input))
      })
    return await ask(rpc)
  } finally {
    const exited = new Promise((resolveExit) => child.once('exit', resolveExit))
    child.kill('SIGINT')
    await exited
    expect(existsSync(dataDir)).toBe(true)
  }
}
