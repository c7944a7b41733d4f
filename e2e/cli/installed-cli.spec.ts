import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { noAgentHomes, PROJECT_ROOT } from '../support/retrace-server'

const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin'

/** The service line of docs/keeping-history.md, up to where it starts the service (this machine has no user session to start it in). */
function serviceLineOfTheDocs(): string {
  const line = readFileSync(join(PROJECT_ROOT, 'docs', 'keeping-history.md'), 'utf8')
    .split('\n')
    .find((text) => text.includes('systemctl --user enable --now retrace-import.service') && text.startsWith('    '))
  if (!line) throw new Error('docs/keeping-history.md has no systemd one-liner')
  return line.trim().split(' && systemctl --user enable')[0] ?? ''
}

test.describe('`retrace` as a user installs it (npm install -g . into a prefix of its own)', () => {
  let root: string
  let prefix: string
  test.beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'retrace-installed-')))
    prefix = join(root, 'prefix')
    // As the README's set-up does, but into a prefix of the test's own: the real global one is never touched.
    const installed = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '.'], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 120_000 })
    expect(installed.status, installed.stderr).toBe(0)
  })
  test.afterAll(() => rmSync(root, { recursive: true, force: true }))

  /** A shell in `cwd` whose PATH is the system's, with the installed `retrace` first or not at all. */
  const shell = (command: string, cwd: string, options: { installed: boolean }) => {
    const home = join(root, 'home')
    mkdirSync(home, { recursive: true })
    const path = options.installed ? `${join(prefix, 'bin')}:${SYSTEM_PATH}` : SYSTEM_PATH
    return spawnSync('sh', ['-c', command], { cwd, encoding: 'utf8', env: { PATH: path, HOME: home, ...noAgentHomes(join(root, 'data')), XDG_CONFIG_HOME: join(home, '.config') }, timeout: 60_000 })
  }

  test('runs from another folder with whatever Node is first on the PATH (the system\'s may be 20)', () => {
    const elsewhere = join(root, 'elsewhere')
    mkdirSync(elsewhere, { recursive: true })
    const version = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
    const ran = shell('retrace --version && retrace workspaces --json --data-dir ../data', elsewhere, { installed: true })
    expect({ status: ran.status, stderr: ran.stderr }).toEqual({ status: 0, stderr: '' })
    // better-sqlite3 13 crashes on Node 20: the store opening proves the bundled Node 22 ran it.
    expect(ran.stdout).toBe(`${version.version}\n[]\n`)
  })

  test('`retrace import` inside the clone refuses to make the clone a workspace; from a project folder it imports it', () => {
    const refused = shell('retrace import --data-dir "$HOME/data"', PROJECT_ROOT, { installed: true })
    expect({ status: refused.status, stderr: refused.stderr }).toEqual({
      status: 2,
      stderr: `retrace: The current folder (${PROJECT_ROOT}) is Retrace's own installation, not a workspace: name the workspace (\`retrace import ~/code/shop\`), or give \`.\` to use this folder anyway.\n`
    })
    const project = join(root, 'project')
    mkdirSync(project, { recursive: true })
    const imported = shell('retrace import --json --data-dir "$HOME/data"', project, { installed: true })
    expect(imported.status, imported.stderr).toBe(0)
    expect((JSON.parse(imported.stdout) as { workspace: { path: string } }).workspace.path).toBe(project)
  })

  test('the docs\' systemd line fails loudly without `retrace` on the PATH, and otherwise writes a unit systemd accepts', () => {
    const line = serviceLineOfTheDocs()
    const unit = join(root, 'home', '.config', 'systemd', 'user', 'retrace-import.service')
    const missing = shell(line, root, { installed: false })
    expect(missing.status).not.toBe(0)
    expect(missing.stderr).toContain('retrace')
    expect(existsSync(unit)).toBe(false)

    const written = shell(line, root, { installed: true })
    expect(written.status, written.stderr).toBe(0)
    const execStart = /^ExecStart=(.*)$/m.exec(readFileSync(unit, 'utf8'))?.[1] ?? ''
    expect(execStart).toBe(`${join(PROJECT_ROOT, 'node_modules', 'node', 'bin', 'node')} ${join(PROJECT_ROOT, 'bin', 'retrace.js')} import --all --watch`)
    const analyze = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8', timeout: 30_000 })
    test.skip(analyze.error !== undefined, 'systemd-analyze is not installed here: the unit was checked by its text only')
    expect({ status: analyze.status, stderr: analyze.stderr }).toEqual({ status: 0, stderr: '' })
  })
})
