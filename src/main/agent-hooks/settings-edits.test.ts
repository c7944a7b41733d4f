import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../testing/temp-runtime'
import { AgentConnectionsService, type ConnectRequest } from './connections-service'
import { parseJsonc } from './jsonc-edit'

/**
 * How `hooks install` and `uninstall` write an agent's settings (issue 38, low items): through a
 * link and never over it, never over a change someone made meanwhile, and an uninstall gives
 * back the very bytes that were there.
 */
describe('writing agents\' settings: links, concurrent writers, exact bytes back', () => {
  const dirs: ReturnType<typeof tempDir>[] = []
  afterEach(() => dirs.splice(0).forEach((dir) => dir.dispose()))

  function setup(whileWriting?: (file: string) => void) {
    const home = tempDir('retrace-home-')
    const data = tempDir('retrace-data-')
    dirs.push(home, data)
    const service = new AgentConnectionsService({ dataDir: data.path, env: { HOME: home.path }, whileWriting })
    const request = (over: Partial<ConnectRequest> = {}): ConnectRequest => ({ agents: ['claude-code'], scope: 'user', workspace: home.path, hooks: true, mcp: false, dryRun: false, ...over })
    const put = (relative: string, text: string) => {
      const file = join(home.path, relative)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, text)
      return file
    }
    return { home: home.path, service, request, put }
  }

  it.skipIf(process.platform === 'win32')('refuses a settings link to nothing, with a sentence, and leaves the link as it was', () => {
    const { home, service, request } = setup()
    mkdirSync(join(home, '.claude'))
    const link = join(home, '.claude', 'settings.json')
    const target = join(home, 'dotfiles', 'claude-settings.json')
    symlinkSync(target, link)
    const installed = service.install(request())
    expect(installed.problems).toEqual([{ agent: 'claude-code', message: `${link} is a link to ${target}, which does not exist: Retrace does not replace the link. Create the file it points to (or remove the link), then try again.` }])
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readlinkSync(link)).toBe(target)
    expect(service.uninstall(request()).files).toEqual([])
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
  })

  it.skipIf(process.platform === 'win32')('edits the file a settings link leads to, and uninstall gives it back with the link in place', () => {
    const { home, service, request, put } = setup()
    const target = put('dotfiles/claude-settings.json', '{\n  "model": "opus"\n}\n')
    const link = join(home, '.claude', 'settings.json')
    mkdirSync(dirname(link))
    symlinkSync(target, link)
    expect(service.install(request()).problems).toEqual([])
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readFileSync(target, 'utf8')).toContain('"UserPromptSubmit"')
    expect(service.uninstall(request()).problems).toEqual([])
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readFileSync(target, 'utf8')).toBe('{\n  "model": "opus"\n}\n')
  })

  it('gives back an empty settings file and a TOML file without a final newline byte for byte', () => {
    const { service, request, put } = setup()
    const empty = put('.claude/settings.json', '')
    const blank = put('.cursor/hooks.json', '\n')
    const toml = put('.codex/config.toml', 'model = "o3"\napproval_policy = "never"')
    const all = request({ agents: ['claude-code', 'cursor', 'codex'], mcp: true })
    expect(service.install(all).problems).toEqual([])
    expect(readFileSync(toml, 'utf8')).toContain('[mcp_servers.retrace]')
    expect(parseJsonc(readFileSync(empty, 'utf8'), empty)).toHaveProperty('hooks.Stop')
    expect(service.uninstall(all).problems).toEqual([])
    expect(readFileSync(empty, 'utf8')).toBe('')
    expect(readFileSync(blank, 'utf8')).toBe('\n')
    expect(readFileSync(toml, 'utf8')).toBe('model = "o3"\napproval_policy = "never"')
  })

  it('does not lose what another writer saved while install was writing: it reads again and merges', () => {
    let writes = 0
    const { service, request, put } = setup((file) => {
      // Claude Code saving the user's /config change between Retrace's read and its rename.
      if (writes++ === 0) writeFileSync(file, '{\n  "model": "opus",\n  "theme": "dark"\n}\n')
    })
    const settings = put('.claude/settings.json', '{\n  "model": "opus"\n}\n')
    const installed = service.install(request())
    expect(installed.problems).toEqual([])
    const after = parseJsonc(readFileSync(settings, 'utf8'), settings) as Record<string, unknown>
    expect(after.theme).toBe('dark')
    expect(after).toHaveProperty('hooks.UserPromptSubmit')
    expect(writes).toBe(2)
  })

  it('gives up with a sentence when the file keeps changing under it, and leaves the other writer\'s content', () => {
    let writes = 0
    const { service, request, put } = setup((file) => writeFileSync(file, `{ "n": ${++writes} }\n`))
    const settings = put('.claude/settings.json', '{}\n')
    const installed = service.install(request())
    expect(installed.problems).toEqual([{ agent: 'claude-code', message: `${settings} was changed by someone else while Retrace was editing it: Retrace wrote nothing, so that change is kept. Try again.` }])
    expect(readFileSync(settings, 'utf8')).toBe(`{ "n": ${writes} }\n`)
    expect(readFileSync(settings, 'utf8')).not.toContain('hooks')
  })
})
