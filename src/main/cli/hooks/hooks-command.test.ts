import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentConnection } from '../../agent-hooks/connections-service'
import { tempDir } from '../../testing/temp-runtime'
import { runCli } from '../main'

describe('retrace hooks install|uninstall|status and retrace mcp install|uninstall', () => {
  const dirs: ReturnType<typeof tempDir>[] = []
  afterEach(() => dirs.splice(0).forEach((dir) => dir.dispose()))

  function setup() {
    const home = tempDir('retrace-home-')
    const data = tempDir('retrace-data-')
    dirs.push(home, data)
    let out: string[] = []
    let err: string[] = []
    const io = { out: (text: string) => out.push(text), err: (text: string) => err.push(text) }
    const run = async (...args: string[]) => {
      out = []
      err = []
      const code = await runCli([...args, '--data-dir', data.path], io, { HOME: home.path })
      return { code, out: out.join('\n'), err: err.join('\n') }
    }
    return { home: home.path, run }
  }

  it('--agent all (the default) connects the agents found here and names the others', async () => {
    const { home, run } = setup()
    mkdirSync(join(home, '.claude'))
    writeFileSync(join(home, '.claude/settings.json'), '{\n  "model": "opus"\n}\n')
    mkdirSync(join(home, '.codex'))
    const installed = await run('hooks', 'install')
    expect(installed.code).toBe(0)
    expect(installed.out).toContain(`Claude Code: ${join(home, '.claude/settings.json')}: UserPromptSubmit hook added (checkpoint begin); Stop hook added (checkpoint end). Backup: `)
    expect(installed.out).toContain(`Codex CLI: ${join(home, '.codex/hooks.json')}: UserPromptSubmit hook added`)
    expect(installed.out).toContain('open /hooks in Codex')
    expect(installed.out).toContain(`Cursor: not found (no ${join(home, '.cursor')}); skipped. Use --agent cursor to write its settings anyway.`)
    expect(existsSync(join(home, '.cursor'))).toBe(false)
    expect(existsSync(join(home, '.gemini'))).toBe(false)

    expect((await run('hooks', 'install')).out).toContain('Claude Code: already connected; nothing to change.')

    const status = await run('hooks', 'status', '--json')
    const agents = JSON.parse(status.out) as AgentConnection[]
    expect(agents.map((agent) => [agent.agent, agent.hooks[0]?.begin ?? null, agent.mcp[0]?.mcp ?? null])).toEqual([
      ['claude-code', 'current', 'current'],
      ['gemini', null, null],
      ['codex', 'current', 'current'],
      ['cursor', null, null],
      ['copilot', null, null]
    ])
    const text = (await run('hooks', 'status', '--agent', 'claude-code')).out
    expect(text).toContain('Claude Code\n  hooks: installed (user: ~/.claude/settings.json)')
    expect(text).toContain('MCP:   registered (user: ~/.claude.json)')
    expect(text).toContain('last capture: none yet')

    expect((await run('hooks', 'uninstall')).code).toBe(0)
    expect(readFileSync(join(home, '.claude/settings.json'), 'utf8')).toBe('{\n  "model": "opus"\n}\n')
    expect(existsSync(join(home, '.claude.json'))).toBe(false)
    expect(existsSync(join(home, '.codex/hooks.json'))).toBe(false)
  })

  it('--no-mcp leaves the MCP settings alone; retrace mcp install registers only the server', async () => {
    const { home, run } = setup()
    expect((await run('hooks', 'install', '--agent', 'gemini', '--no-mcp')).code).toBe(0)
    expect(JSON.parse(readFileSync(join(home, '.gemini/settings.json'), 'utf8'))).not.toHaveProperty('mcpServers')
    expect((await run('mcp', 'install', '--agent', 'cursor')).code).toBe(0)
    expect(existsSync(join(home, '.cursor/mcp.json'))).toBe(true)
    expect(existsSync(join(home, '.cursor/hooks.json'))).toBe(false)
    expect((await run('mcp', 'uninstall', '--agent', 'cursor')).code).toBe(0)
    expect(existsSync(join(home, '.cursor/mcp.json'))).toBe(false)
  })

  it('--dry-run prints the diff and writes nothing', async () => {
    const { home, run } = setup()
    const dry = await run('hooks', 'install', '--agent', 'copilot', '--dry-run')
    expect(dry.code).toBe(0)
    expect(dry.out).toContain(`Copilot CLI: would change ${join(home, '.copilot/hooks/retrace.json')}`)
    expect(dry.out).toContain('+    "userPromptSubmitted": [')
    expect(existsSync(join(home, '.copilot'))).toBe(false)
  })

  it('says what is wrong: an unknown agent or scope, a file it will not touch (exit 1)', async () => {
    const { home, run } = setup()
    expect(await run('hooks', 'install', '--agent', 'windsurf')).toMatchObject({ code: 2, err: 'retrace: --agent must be one of claude-code, gemini, codex, cursor, copilot or all, not "windsurf".' })
    expect(await run('hooks', 'install', '--scope', 'global')).toMatchObject({ code: 2, err: 'retrace: --scope must be user or project, not "global".' })
    expect(await run('hooks', 'sideways')).toMatchObject({ code: 2, err: 'retrace: Use `retrace hooks install`, `retrace hooks uninstall` or `retrace hooks status`, not "retrace hooks sideways".' })
    mkdirSync(join(home, '.cursor'))
    writeFileSync(join(home, '.cursor/hooks.json'), '{ "version": 1, "hooks": [] }')
    const refused = await run('hooks', 'install', '--agent', 'cursor')
    expect(refused.code).toBe(1)
    expect(refused.err).toContain('retrace: Cursor: Expected an object at hooks')
    expect(readFileSync(join(home, '.cursor/hooks.json'), 'utf8')).toBe('{ "version": 1, "hooks": [] }')
  })
})
