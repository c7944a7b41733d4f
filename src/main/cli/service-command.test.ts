import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { packageRoot } from '../agent-hooks/retrace-command'
import { tempDir } from '../testing/temp-runtime'
import { APP_VERSION } from '../runtime/version'
import { runCli } from './main'
import { serviceUnit, systemdWord } from './service-command'

const dirs: ReturnType<typeof tempDir>[] = []
afterEach(() => dirs.splice(0).forEach((dir) => dir.dispose()))

function home() {
  const dir = tempDir('retrace-service-')
  dirs.push(dir)
  return dir.path
}

async function cli(args: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(args, { out: (text) => out.push(text), err: (text) => err.push(text) }, env)
  return { code, out: out.join('\n'), err: err.join('\n') }
}

const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' }).status === 0

describe('retrace service install: the user service that runs import --all --watch', () => {
  it.skipIf(process.platform !== 'linux')('writes a systemd user unit that names Node and bin/retrace.js by absolute path (Linux only)', async () => {
    const root = home()
    const env = { HOME: root, XDG_CONFIG_HOME: join(root, 'config') }
    const data = join(root, 'my data')
    const unitFile = join(root, 'config', 'systemd', 'user', 'retrace-import.service')
    const script = join(packageRoot(), 'bin', 'retrace.js')

    const written = await cli(['service', 'install', '--data-dir', data], env)
    expect(written).toEqual({ code: 0, out: `Wrote ${unitFile}. Start it (now and at every login): systemctl --user enable --now retrace-import.service\nStop it: systemctl --user disable --now retrace-import.service`, err: '' })
    const unit = readFileSync(unitFile, 'utf8')
    expect(unit).toBe(
      [
        '[Unit]',
        "Description=Retrace: import AI agents' history",
        '',
        '[Service]',
        `ExecStart=${process.execPath} ${script} import --all --watch --data-dir "${data}"`,
        "# A service does not read your shell start-up files: set the agents' folders you moved here, e.g.",
        '# Environment=CLAUDE_CONFIG_DIR=/home/you/.claude-work',
        'Restart=on-failure',
        'RestartSec=60',
        '',
        '[Install]',
        'WantedBy=default.target',
        ''
      ].join('\n')
    )
    // What ExecStart runs is there and is Retrace, from any folder and with no PATH at all.
    const ran = spawnSync(process.execPath, [script, '--version'], { cwd: root, env: {}, encoding: 'utf8' })
    expect({ status: ran.status, stdout: ran.stdout.trim() }).toEqual({ status: 0, stdout: APP_VERSION })

    expect((await cli(['service', 'install', '--data-dir', data], env)).out).toBe(`${unitFile} is already this service; nothing to change. Start it (now and at every login): systemctl --user enable --now retrace-import.service`)
    // A unit edited by hand is kept unless --force.
    writeFileSync(unitFile, `${unit}Environment=CLAUDE_CONFIG_DIR=/elsewhere\n`)
    expect(await cli(['service', 'install', '--data-dir', data], env)).toEqual({ code: 1, out: '', err: `retrace: ${unitFile} exists and differs from the service Retrace would write: see it with --dry-run, then replace it with --force.` })
    expect(readFileSync(unitFile, 'utf8')).toContain('/elsewhere')
    expect((await cli(['service', 'install', '--dry-run', '--data-dir', data], env)).out).toBe(`Would write ${unitFile}:\n\n${unit}`)
    expect((await cli(['service', 'install', '--force', '--data-dir', data], env)).code).toBe(0)
    expect(readFileSync(unitFile, 'utf8')).toBe(unit)
  })

  it.skipIf(!hasSystemdAnalyze)('systemd itself accepts the unit (systemd-analyze verify; skipped where systemd-analyze is missing)', async () => {
    const root = home()
    const env = { HOME: root, XDG_CONFIG_HOME: join(root, 'config') }
    expect((await cli(['service', 'install', '--data-dir', join(root, 'data')], env)).code).toBe(0)
    const verified = spawnSync('systemd-analyze', ['verify', join(root, 'config', 'systemd', 'user', 'retrace-import.service')], { encoding: 'utf8', timeout: 30_000 })
    expect({ status: verified.status, stderr: verified.stderr }).toEqual({ status: 0, stderr: '' })
  })

  it('leaves out --data-dir for the default store, and quotes what systemd would expand or split', () => {
    const program = { node: '/opt/node 22/bin/node', script: '/srv/retrace/bin/retrace.js', dataDirArgs: ['--data-dir', '/data/100%/$HOME'] }
    const unit = serviceUnit('/data', { env: { HOME: '/home/you' }, platform: 'linux', program })
    expect(unit.file).toBe('/home/you/.config/systemd/user/retrace-import.service')
    expect(unit.text).toContain('ExecStart="/opt/node 22/bin/node" /srv/retrace/bin/retrace.js import --all --watch --data-dir "/data/100%%/$$HOME"\n')
    expect(systemdWord('a"b\\c d')).toBe('"a\\"b\\\\c d"')
    expect(systemdWord('/plain/path-1.js')).toBe('/plain/path-1.js')
  })

  it('writes a launchd agent on macOS, and says what to do on Windows', () => {
    const program = { node: '/opt/homebrew/bin/node', script: '/Users/you/retrace & co/bin/retrace.js', dataDirArgs: [] }
    const unit = serviceUnit('/Users/you/.retrace', { env: { HOME: '/Users/you' }, platform: 'darwin', program })
    expect(unit.file).toBe('/Users/you/Library/LaunchAgents/dev.retrace.import.plist')
    expect(unit.text).toContain('  <array>\n    <string>/opt/homebrew/bin/node</string>\n    <string>/Users/you/retrace &amp; co/bin/retrace.js</string>\n    <string>import</string>\n    <string>--all</string>\n    <string>--watch</string>\n  </array>')
    expect(unit.start).toBe('launchctl bootstrap gui/$(id -u) /Users/you/Library/LaunchAgents/dev.retrace.import.plist')
    expect(() => serviceUnit('/data', { env: {}, platform: 'win32', program })).toThrow('Retrace writes a user service for Linux (systemd) and macOS (launchd), not for win32')
  })

  it('anything but `install` is a usage error (exit 2), and writes nothing', async () => {
    const root = home()
    const env = { HOME: root, XDG_CONFIG_HOME: join(root, 'config') }
    expect(await cli(['service', '--data-dir', join(root, 'data')], env)).toEqual({ code: 2, out: '', err: 'retrace: Use `retrace service install`, not "retrace service".' })
    expect((await cli(['service', 'start', '--data-dir', join(root, 'data')], env)).code).toBe(2)
    expect(existsSync(join(root, 'config'))).toBe(false)
  })
})
