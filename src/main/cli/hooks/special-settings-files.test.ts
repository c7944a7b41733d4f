import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentConnection } from '../../agent-hooks/connections-service'
import { tempDir } from '../../testing/temp-runtime'

const ROOT = resolve(__dirname, '../../../..')
const CLI = join(ROOT, 'src/main/testing/cli-process.ts')

/**
 * Settings files that are not files (issue 38, item 8): before, a link to /dev/zero made
 * `readFileSync` grow its buffer until the process aborted, and a FIFO made it wait for a writer
 * forever. The real command runs in a process of its own with a time limit, so a hang fails the
 * test instead of stopping it.
 */
describe.skipIf(process.platform === 'win32')('settings files that are links to devices, FIFOs, folders or huge (in a process of its own)', () => {
  const dirs: ReturnType<typeof tempDir>[] = []
  afterEach(() => dirs.splice(0).forEach((dir) => dir.dispose()))

  /** A home whose agents' settings are each something else than a small file, and a workspace likewise. */
  function hostileSetup() {
    const dir = tempDir('retrace-special-settings-')
    dirs.push(dir)
    const home = join(dir.path, 'home')
    const workspace = join(dir.path, 'project')
    for (const folder of [join(home, '.claude'), join(home, '.gemini'), join(home, '.codex'), workspace]) mkdirSync(folder, { recursive: true })
    const files = {
      fifo: join(home, '.claude', 'settings.json'),
      deviceLink: join(workspace, '.mcp.json'),
      folder: join(home, '.gemini', 'settings.json'),
      huge: join(home, '.codex', 'config.toml')
    }
    execFileSync('mkfifo', [files.fifo])
    symlinkSync('/dev/zero', files.deviceLink)
    mkdirSync(files.folder)
    writeFileSync(files.huge, 'model = "o3"\n')
    truncateSync(files.huge, 100 * 1024 * 1024)
    const retrace = (...args: string[]) => {
      const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite-node/dist/cli.mjs'), CLI, '--', ...args, '--data-dir', join(dir.path, 'data')], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        // A process stuck in a blocking open ignores SIGTERM (its handler never runs).
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, HOME: home, XDG_STATE_HOME: join(dir.path, 'state'), CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', GEMINI_CLI_HOME: '', RETRACE_HOME: '', RETRACE_BACKGROUND_IMPORT: '0' }
      })
      return { code: result.status, signal: result.signal, out: result.stdout, err: result.stderr }
    }
    return { home, workspace, files, retrace }
  }

  it('`retrace hooks status` names each such file and why it is not read, and exits', () => {
    const { workspace, files, retrace } = hostileSetup()
    const status = retrace('hooks', 'status', '--json', '--workspace', workspace)
    expect(status.signal, status.err).toBeNull()
    expect(status.code, status.err).toBe(0)
    const agents = JSON.parse(status.out) as AgentConnection[]
    const problems = agents.flatMap((agent) => [...agent.hooks, ...agent.mcp]).flatMap((file) => (file.problem ? [file.problem] : []))
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`${files.fifo} is a named pipe (FIFO), not a regular file: Retrace does not read it as settings.`),
        expect.stringContaining(`${files.deviceLink} is a link to /dev/zero (a character device), not a regular file`),
        expect.stringContaining(`${files.folder} is a folder, not a regular file`),
        expect.stringContaining(`${files.huge} is 100 MB, more than the 4.0 MB a settings file may have`)
      ]) as string[]
    )
    const text = retrace('hooks', 'status', '--workspace', workspace)
    expect(text.code, text.err).toBe(0)
    expect(text.out).toContain('is a named pipe (FIFO)')
  }, 120_000)

  it('`retrace hooks install` refuses those agents with a sentence each, writes nothing of theirs, and exits', () => {
    const { home, workspace, files, retrace } = hostileSetup()
    const user = retrace('hooks', 'install', '--agent', 'claude-code,gemini,codex')
    expect(user.signal, user.err).toBeNull()
    expect(user.code).toBe(1)
    expect(user.err).toContain(`retrace: Claude Code: ${files.fifo} is a named pipe (FIFO), not a regular file`)
    expect(user.err).toContain(`retrace: Gemini CLI: ${files.folder} is a folder, not a regular file`)
    expect(user.err).toContain(`retrace: Codex CLI: ${files.huge} is 100 MB`)
    expect(existsSync(join(home, '.codex', 'hooks.json'))).toBe(false)
    expect(existsSync(join(home, '.claude.json'))).toBe(false)

    const project = retrace('hooks', 'install', '--agent', 'claude-code', '--scope', 'project', '--workspace', workspace)
    expect(project.signal, project.err).toBeNull()
    expect(project.code).toBe(1)
    expect(project.err).toContain(`retrace: Claude Code: ${files.deviceLink} is a link to /dev/zero (a character device), not a regular file`)
    expect(existsSync(join(workspace, '.claude', 'settings.json'))).toBe(false)
  }, 120_000)

  it("`retrace import` of a workspace whose .aider.conf.yml is a link to /dev/zero, with a FIFO as the home's, imports and exits", () => {
    const { home, workspace, retrace } = hostileSetup()
    symlinkSync('/dev/zero', join(workspace, '.aider.conf.yml'))
    execFileSync('mkfifo', [join(home, '.aider.conf.yml')])
    writeFileSync(join(workspace, '.aider.chat.history.md'), '# aider chat started at 2026-01-05 10:00:00\n\n#### say hi\n\nHi!\n')
    const imported = retrace('import', workspace)
    expect(imported.signal, imported.err).toBeNull()
    expect(imported.code, imported.err).toBe(0)
    expect(imported.out).toContain('1 new session')
  }, 120_000)
})
