import { spawnSync } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { PROJECT_ROOT, startRetraceServer } from '../support/retrace-server'

const BIN = join(PROJECT_ROOT, 'bin/retrace.js')

/** The hooks of the agent's settings file, as `retrace hooks install` wrote them. */
type HookGroups = Record<string, { hooks?: { command: string }[]; command?: string }[]>

test.describe('with `retrace serve` running, installed hooks hand their turns to it (hooks.sock)', () => {
  let root: string
  test.beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'retrace-handoff-')))
  })
  test.afterEach(() => rmSync(root, { recursive: true, force: true }))

  const retrace = (home: string, ...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home } })
  /** What the agent does: its hook command through a shell, from another folder, with a bare environment, its JSON on stdin. */
  const runHook = (command: string, input: unknown, cwd: string) => spawnSync('env', ['-i', 'PATH=/usr/bin:/bin', 'sh', '-c', command], { cwd, input: JSON.stringify(input), encoding: 'utf8' })
  const logged = (data: string) => readFileSync(join(data, 'hooks.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { phase: string; turn: number; changes: number | null; error: string | null; via: string; pid: number })

  test('Claude Code: the server captures the turn; once it is killed, the hooks capture their turns themselves', async () => {
    const home = join(root, 'home')
    const data = join(root, 'data')
    const project = join(root, 'project')
    const elsewhere = join(root, 'elsewhere')
    for (const dir of [join(home, '.claude'), project, elsewhere]) mkdirSync(dir, { recursive: true })
    writeFileSync(join(project, 'notes.txt'), 'first\n')
    writeFileSync(join(project, 'main.ts'), 'export const main = 1\n')
    expect(retrace(home, 'hooks', 'install', '--agent', 'claude-code', '--no-mcp', '--data-dir', data).status).toBe(0)
    const hooks = (JSON.parse(readFileSync(join(home, '.claude/settings.json'), 'utf8')) as { hooks: HookGroups }).hooks
    const begin = hooks.UserPromptSubmit?.[0]?.hooks?.[0]?.command ?? ''
    const end = hooks.Stop?.[0]?.hooks?.[0]?.command ?? ''
    const session = '6f1c2a9e-2222-4a4b-9c3d-0123456789ab'
    const input = (event: string, extra: object = {}) => ({ session_id: session, transcript_path: join(home, 'transcript.jsonl'), cwd: project, permission_mode: 'default', hook_event_name: event, ...extra })

    const server = await startRetraceServer([], { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') }, { dataDir: data })
    try {
      expect(lstatSync(join(data, 'hooks.sock')).mode & 0o777).toBe(0o600)
      const began = runHook(begin, input('UserPromptSubmit', { prompt: 'tidy the notes' }), elsewhere)
      // Exit 0 and an empty stdout: Claude Code would add any output to the model's context.
      expect({ status: began.status, stdout: began.stdout, stderr: began.stderr }).toEqual({ status: 0, stdout: '', stderr: '' })
      // The turn's shell work: a move, an edit and a new file.
      spawnSync('sh', ['-c', 'mv notes.txt NOTES.md && printf "export const main = 2\\n" > main.ts && printf "generated\\n" > gen.txt'], { cwd: project })
      const ended = runHook(end, input('Stop', { stop_hook_active: false }), elsewhere)
      expect({ status: ended.status, stdout: ended.stdout, stderr: ended.stderr }).toEqual({ status: 0, stdout: '', stderr: '' })

      // The server did the work: its pid is on both runs.
      expect(logged(data).map((run) => [run.phase, run.turn, run.changes, run.error, run.via, run.pid])).toEqual([
        ['begin', 1, null, null, 'app', server.pid],
        ['end', 1, 3, null, 'app', server.pid]
      ])
      const changes = retrace(home, 'changes', session, '--turn', '1', '--json', '--data-dir', data)
      expect(changes.status).toBe(0)
      const [turn] = JSON.parse(changes.stdout) as { changes: { op: string; path: string }[] }[]
      expect(turn?.changes.map((change) => `${change.op} ${change.path}`).sort()).toEqual(['create gen.txt', 'modify main.ts', 'rename NOTES.md'])
      const status = retrace(home, 'hooks', 'status', '--agent', 'claude-code', '--data-dir', data)
      expect(status.stdout).toMatch(/last capture: .*: turn 1 of [0-9a-f-]{36} in .*project, 3 file changes \(\d+ ms, captured by the running app\)/)

      // A crash leaves the socket file behind: the hooks find no one there and capture the turn themselves.
      await server.kill()
      expect(lstatSync(join(data, 'hooks.sock')).isSocket()).toBe(true)
      expect(runHook(begin, input('UserPromptSubmit', { prompt: 'and the readme' }), elsewhere)).toMatchObject({ status: 0, stdout: '', stderr: '' })
      writeFileSync(join(project, 'README.md'), '# notes\n')
      expect(runHook(end, input('Stop', { stop_hook_active: false }), elsewhere)).toMatchObject({ status: 0, stdout: '', stderr: '' })
      const after = logged(data).slice(2)
      expect(after.map((run) => [run.phase, run.turn, run.changes, run.error, run.via])).toEqual([
        ['begin', 2, null, null, 'hook'],
        ['end', 2, 1, null, 'hook']
      ])
      expect(after.every((run) => run.pid !== server.pid)).toBe(true)

      // The next server replaces the stale socket and takes the turns again.
      const next = await startRetraceServer([], { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') }, { dataDir: data })
      try {
        expect(runHook(begin, input('UserPromptSubmit', { prompt: 'one more' }), elsewhere)).toMatchObject({ status: 0, stdout: '' })
        expect(logged(data).at(-1)).toMatchObject({ phase: 'begin', turn: 3, error: null, via: 'app', pid: next.pid })
      } finally {
        await next.stop()
      }
      expect(existsSync(join(data, 'hooks.sock'))).toBe(false)
    } finally {
      await server.stop()
    }
  })

  test('Cursor: its JSON answer comes through the server exactly', async () => {
    const home = join(root, 'home')
    const data = join(root, 'data')
    const project = join(root, 'project')
    for (const dir of [home, project]) mkdirSync(dir, { recursive: true })
    writeFileSync(join(project, 'a.ts'), 'export {}\n')
    expect(retrace(home, 'hooks', 'install', '--agent', 'cursor', '--no-mcp', '--data-dir', data).status).toBe(0)
    const hooks = (JSON.parse(readFileSync(join(home, '.cursor/hooks.json'), 'utf8')) as { hooks: HookGroups }).hooks
    const server = await startRetraceServer([], { HOME: home }, { dataDir: data })
    try {
      const common = { conversation_id: 'c0ffee00-0000-4000-8000-000000000002', generation_id: 'gen-1', hook_event_name: 'beforeSubmitPrompt', workspace_roots: [project], cursor_version: '2.0.77' }
      const began = runHook(hooks.beforeSubmitPrompt?.[0]?.command ?? '', { ...common, prompt: 'delete a.ts', attachments: [] }, home)
      expect({ status: began.status, stdout: began.stdout, stderr: began.stderr }).toEqual({ status: 0, stdout: '{"continue":true}\n', stderr: '' })
      rmSync(join(project, 'a.ts'))
      const ended = runHook(hooks.stop?.[0]?.command ?? '', { ...common, hook_event_name: 'stop', status: 'completed', loop_count: 0 }, home)
      expect({ status: ended.status, stdout: ended.stdout, stderr: ended.stderr }).toEqual({ status: 0, stdout: '{}\n', stderr: '' })
      expect(logged(data).map((run) => [run.phase, run.changes, run.error, run.via])).toEqual([
        ['begin', null, null, 'app'],
        ['end', 1, null, 'app']
      ])
    } finally {
      await server.stop()
    }
  })
})
