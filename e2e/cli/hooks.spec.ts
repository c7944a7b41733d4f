import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { PROJECT_ROOT } from '../support/retrace-server'

const BIN = join(PROJECT_ROOT, 'bin/retrace.js')

/** The hooks of the agent's settings file, as `retrace hooks install` wrote them. */
type HookGroups = Record<string, { hooks?: { command: string }[]; command?: string }[]>

test.describe('agent hooks installed by `retrace hooks install` (built CLI)', () => {
  let root: string
  test.beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'retrace-hooks-'))
  })
  test.afterEach(() => rmSync(root, { recursive: true, force: true }))

  const retrace = (home: string, ...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home } })
  /** What the agent does: its hook command through a shell, from another folder, with a bare environment, its JSON on stdin. */
  const runHook = (command: string, input: unknown, cwd: string) => spawnSync('env', ['-i', 'PATH=/usr/bin:/bin', 'sh', '-c', command], { cwd, input: JSON.stringify(input), encoding: 'utf8' })

  test('Claude Code: the installed command captures a turn from any folder with PATH=/usr/bin:/bin, and uninstall restores the file', () => {
    const home = join(root, 'home')
    const data = join(root, 'data')
    const project = join(root, 'project')
    const elsewhere = join(root, 'elsewhere')
    for (const dir of [join(home, '.claude'), project, elsewhere]) mkdirSync(dir, { recursive: true })
    const settings = '{\n  "model": "opus",\n  "permissions": { "allow": ["Bash(npm test)"] }\n}\n'
    writeFileSync(join(home, '.claude/settings.json'), settings)
    writeFileSync(join(project, 'notes.txt'), 'first\n')

    const installed = retrace(home, 'hooks', 'install', '--agent', 'claude-code', '--data-dir', data)
    expect(installed.stderr).toBe('')
    expect(installed.status).toBe(0)
    const hooks = (JSON.parse(readFileSync(join(home, '.claude/settings.json'), 'utf8')) as { hooks: HookGroups }).hooks
    const begin = hooks.UserPromptSubmit?.[0]?.hooks?.[0]?.command ?? ''
    const end = hooks.Stop?.[0]?.hooks?.[0]?.command ?? ''
    // Absolute Node and the package's own bin/retrace.js (not out/, which a build replaces).
    expect(begin).toBe(`${process.execPath} ${BIN} checkpoint begin --hook claude-code --data-dir ${data}`)

    const session = '6f1c2a9e-1111-4a4b-9c3d-0123456789ab'
    const began = runHook(begin, { session_id: session, transcript_path: join(home, 'transcript.jsonl'), cwd: project, permission_mode: 'default', hook_event_name: 'UserPromptSubmit', prompt: 'tidy the notes' }, elsewhere)
    // Exit 0 and an empty stdout: Claude Code would add any output to the model's context.
    expect({ status: began.status, stdout: began.stdout, stderr: began.stderr }).toEqual({ status: 0, stdout: '', stderr: '' })
    // The turn's shell work: a move and a new file nothing but a scan would see.
    spawnSync('sh', ['-c', 'mv notes.txt NOTES.md && printf "generated\\n" > gen.txt'], { cwd: project })
    const ended = runHook(end, { session_id: session, transcript_path: join(home, 'transcript.jsonl'), cwd: project, permission_mode: 'default', hook_event_name: 'Stop', stop_hook_active: false }, elsewhere)
    expect({ status: ended.status, stdout: ended.stdout, stderr: ended.stderr }).toEqual({ status: 0, stdout: '', stderr: '' })

    const changes = retrace(home, 'changes', session, '--turn', '1', '--json', '--data-dir', data)
    expect(changes.status).toBe(0)
    const [turn] = JSON.parse(changes.stdout) as { changes: { op: string; path: string }[] }[]
    expect(turn?.changes.map((change) => `${change.op} ${change.path}`).sort()).toEqual(['create gen.txt', 'rename NOTES.md'])

    // A capture that fails (the project folder is gone) does not fail the hook; status shows why.
    const failed = runHook(begin, { session_id: session, cwd: join(root, 'gone'), hook_event_name: 'UserPromptSubmit', prompt: 'next' }, elsewhere)
    expect({ status: failed.status, stdout: failed.stdout }).toEqual({ status: 0, stdout: '' })
    const status = retrace(home, 'hooks', 'status', '--agent', 'claude-code', '--data-dir', data)
    expect(status.stdout).toContain('hooks: installed (user: ~/.claude/settings.json)')
    expect(status.stdout).toMatch(/last capture: .*: turn 1 of [0-9a-f-]{36} in .*project, 2 file changes/)
    expect(status.stdout).toMatch(/last error: {3}.* \(begin in .*gone\): .*gone/)

    expect(retrace(home, 'hooks', 'uninstall', '--agent', 'claude-code', '--data-dir', data).status).toBe(0)
    expect(readFileSync(join(home, '.claude/settings.json'), 'utf8')).toBe(settings)
  })

  test('Cursor: beforeSubmitPrompt gets its JSON answer on stdout, stop closes the turn', () => {
    const home = join(root, 'home')
    const data = join(root, 'data')
    const project = join(root, 'project')
    for (const dir of [home, project]) mkdirSync(dir, { recursive: true })
    writeFileSync(join(project, 'a.ts'), 'export {}\n')
    expect(retrace(home, 'hooks', 'install', '--agent', 'cursor', '--no-mcp', '--data-dir', data).status).toBe(0)
    const hooks = (JSON.parse(readFileSync(join(home, '.cursor/hooks.json'), 'utf8')) as { hooks: HookGroups }).hooks
    const common = { conversation_id: 'c0ffee00-0000-4000-8000-000000000001', generation_id: 'gen-1', hook_event_name: 'beforeSubmitPrompt', workspace_roots: [project], cursor_version: '2.0.77' }
    const began = runHook(hooks.beforeSubmitPrompt?.[0]?.command ?? '', { ...common, prompt: 'delete a.ts', attachments: [] }, home)
    expect({ status: began.status, stdout: began.stdout }).toEqual({ status: 0, stdout: '{"continue":true}\n' })
    rmSync(join(project, 'a.ts'))
    const ended = runHook(hooks.stop?.[0]?.command ?? '', { ...common, hook_event_name: 'stop', status: 'completed', loop_count: 0 }, home)
    expect({ status: ended.status, stdout: ended.stdout }).toEqual({ status: 0, stdout: '{}\n' })
    const status = JSON.parse(retrace(home, 'hooks', 'status', '--json', '--data-dir', data).stdout) as { agent: string; lastCapture: { changes: number } | null }[]
    expect(status.find((agent) => agent.agent === 'cursor')?.lastCapture).toMatchObject({ changes: 1 })
  })
})
