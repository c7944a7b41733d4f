import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parse as parseToml } from 'smol-toml'
import { tempDir } from '../testing/temp-runtime'
import { AgentConnectionsService, type ConnectRequest } from './connections-service'
import { parseJsonc } from './jsonc-edit'
import { hookCommand, retraceProgram } from './retrace-command'

// Settings files as people keep them: other keys, other hooks and servers, comments where the
// format allows them (Gemini CLI and Cursor read JSONC), odd spacing, a one-line array.
const CLAUDE_SETTINGS = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "model": "opus",
  "permissions": {
    "allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"],
    "deny": ["Read(./.env)"]
  },
  "hooks": {
    "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "~/.claude/guard.sh" } ] } ],
    "Stop": [
      {
        "hooks": [
          { "type": "command", "command": "notify-send 'Claude is done'", "timeout": 5 }
        ]
      }
    ]
  },
  "cleanupPeriodDays": 90,
  "env": { "DISABLE_TELEMETRY": "1" }
}
`
const GEMINI_SETTINGS = `// Gemini CLI settings (JSONC)
{
  "general": {
    "vimMode": true, // I like vim
    "preferredEditor": "nvim"
  },
  /* servers I use every day */
  "mcpServers": {
    "github": { "command": "docker", "args": ["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"], "env": { "GITHUB_TOKEN": "$GITHUB_TOKEN" } }
  },
  "hooks": {
    "BeforeTool": [
      { "matcher": "run_shell_command", "hooks": [ { "type": "command", "command": "./check.sh", "name": "check" } ] }
    ]
  },
  "ui": { "theme": "GitHub" },
}
`
const CODEX_CONFIG = `# ~/.codex/config.toml
model = "gpt-5-codex"
approval_policy = "on-request"  # ask before running anything

[mcp_servers.docs]
command = "npx"
args = ["-y", "@upstash/context7-mcp"]

# profiles
[profiles.fast]
model = "gpt-5-codex-mini"
`
const CURSOR_MCP = `{
\t"mcpServers": {
\t\t"linear": {
\t\t\t"url": "https://mcp.linear.app/sse"
\t\t}
\t}
}`
const COPILOT_MCP = `{
  "mcpServers": {
    "playwright": { "type": "local", "command": "npx", "args": ["@playwright/mcp@latest"], "tools": ["*"] }
  }
}
`

describe('connecting agents: hooks and MCP registration in their own settings', () => {
  const dirs: ReturnType<typeof tempDir>[] = []
  afterEach(() => dirs.splice(0).forEach((dir) => dir.dispose()))

  function setup() {
    const home = tempDir('retrace-home-')
    const data = tempDir('retrace-data-')
    const project = tempDir('retrace-project-')
    dirs.push(home, data, project)
    const env = { HOME: home.path }
    const service = new AgentConnectionsService({ dataDir: data.path, env })
    const request = (over: Partial<ConnectRequest> = {}): ConnectRequest => ({ agents: ['claude-code', 'gemini', 'codex', 'cursor', 'copilot'], scope: 'user', workspace: project.path, hooks: true, mcp: true, dryRun: false, ...over })
    const put = (relative: string, text: string) => {
      const file = join(home.path, relative)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, text)
      return file
    }
    return { home: home.path, data: data.path, project: project.path, env, service, request, put, program: retraceProgram(data.path) }
  }

  it('merges into existing files, changes nothing on a second install, and uninstall gives every file back byte for byte', () => {
    const { home, service, request, put, program } = setup()
    const claude = put('.claude/settings.json', CLAUDE_SETTINGS)
    chmodSync(claude, 0o640)
    const claudeJson = put('.claude.json', '{\n  "numStartups": 12,\n  "projects": {}\n}\n')
    const gemini = put('.gemini/settings.json', GEMINI_SETTINGS)
    const codexConfig = put('.codex/config.toml', CODEX_CONFIG)
    const cursorMcp = put('.cursor/mcp.json', CURSOR_MCP)
    const copilotMcp = put('.copilot/mcp-config.json', COPILOT_MCP)
    const before = new Map([claude, claudeJson, gemini, codexConfig, cursorMcp, copilotMcp].map((file) => [file, readFileSync(file, 'utf8')]))

    const installed = service.install(request())
    expect(installed.problems).toEqual([])

    // Claude Code: both hooks added beside the user's own Stop hook, with the absolute command.
    const settings = parseJsonc(readFileSync(claude, 'utf8'), claude) as { hooks: Record<string, { hooks: { command: string }[] }[]>; model: string }
    expect(settings.hooks.UserPromptSubmit?.[0]?.hooks[0]?.command).toBe(hookCommand(program, 'begin', 'claude-code'))
    expect(settings.hooks.Stop?.map((group) => group.hooks[0]?.command)).toEqual(["notify-send 'Claude is done'", hookCommand(program, 'end', 'claude-code')])
    expect(hookCommand(program, 'begin', 'claude-code')).toMatch(/^\/\S+\/node \/\S+\/bin\/retrace\.js checkpoint begin --hook claude-code --data-dir \/\S+$/)
    expect(statSync(claude).mode & 0o777).toBe(0o640)
    // Everything the user wrote is still there, in order, comments included.
    expect(readFileSync(gemini, 'utf8')).toContain('"vimMode": true, // I like vim')
    expect(readFileSync(gemini, 'utf8').indexOf('/* servers I use every day */')).toBeLessThan(readFileSync(gemini, 'utf8').indexOf('"retrace"'))
    expect(readFileSync(claude, 'utf8').startsWith(CLAUDE_SETTINGS.slice(0, CLAUDE_SETTINGS.indexOf('    "Stop": [')))).toBe(true)
    // A backup of each file as it was sits beside it.
    const backups = readdirSync(dirname(claude)).filter((name) => name.startsWith('settings.json.retrace-backup-'))
    expect(backups).toHaveLength(1)
    expect(readFileSync(join(dirname(claude), backups[0] as string), 'utf8')).toBe(CLAUDE_SETTINGS)

    // MCP: one entry named retrace in each agent's file, the same Node and script.
    const server = { command: program.node, args: [program.script, ...program.dataDirArgs, 'mcp'] }
    expect((parseJsonc(readFileSync(claudeJson, 'utf8'), claudeJson) as { mcpServers: unknown }).mcpServers).toEqual({ retrace: { type: 'stdio', ...server, env: {} } })
    expect((parseJsonc(readFileSync(gemini, 'utf8'), gemini) as { mcpServers: Record<string, unknown> }).mcpServers.retrace).toEqual(server)
    expect((parseToml(readFileSync(codexConfig, 'utf8')) as { mcp_servers: Record<string, unknown> }).mcp_servers).toEqual({ docs: { command: 'npx', args: ['-y', '@upstash/context7-mcp'] }, retrace: server })
    expect(readFileSync(cursorMcp, 'utf8')).toContain('\t\t"retrace": {\n\t\t\t"command"')
    expect((parseJsonc(readFileSync(copilotMcp, 'utf8'), copilotMcp) as { mcpServers: Record<string, unknown> }).mcpServers.retrace).toEqual({ type: 'local', ...server, tools: ['*'] })
    // Files the agents did not have are created: Codex's, Cursor's and Copilot's hook files.
    const cursorHooks = join(home, '.cursor/hooks.json')
    expect(parseJsonc(readFileSync(cursorHooks, 'utf8'), cursorHooks)).toEqual({ version: 1, hooks: { beforeSubmitPrompt: [{ command: hookCommand(program, 'begin', 'cursor') }], stop: [{ command: hookCommand(program, 'end', 'cursor') }] } })
    const copilotHooks = join(home, '.copilot/hooks/retrace.json')
    expect(parseJsonc(readFileSync(copilotHooks, 'utf8'), copilotHooks)).toMatchObject({ version: 1, hooks: { userPromptSubmitted: [{ type: 'command', bash: hookCommand(program, 'begin', 'copilot') }], agentStop: [{ type: 'command', bash: hookCommand(program, 'end', 'copilot') }] } })
    expect(statSync(copilotHooks).mode & 0o777).toBe(0o600)

    const snapshot = new Map([...before.keys(), cursorHooks, copilotHooks, join(home, '.codex/hooks.json')].map((file) => [file, readFileSync(file, 'utf8')]))
    const again = service.install(request())
    expect(again).toEqual({ files: [], problems: [] })
    for (const [file, text] of snapshot) expect(readFileSync(file, 'utf8')).toBe(text)

    const removed = service.uninstall(request())
    expect(removed.problems).toEqual([])
    for (const [file, text] of before) expect(readFileSync(file, 'utf8'), file).toBe(text)
    expect(statSync(claude).mode & 0o777).toBe(0o640)
    for (const created of [cursorHooks, copilotHooks, join(home, '.codex/hooks.json')]) expect(existsSync(created), created).toBe(false)
    expect(service.uninstall(request())).toEqual({ files: [], problems: [] })
  })

  it('--dry-run shows the diff of each file and writes nothing', () => {
    const { service, request, put, program } = setup()
    const claude = put('.claude/settings.json', CLAUDE_SETTINGS)
    const outcome = service.install(request({ agents: ['claude-code'], dryRun: true }))
    expect(outcome.files.map((file) => file.file).sort()).toEqual([claude, join(dirname(claude), '..', '.claude.json')].map((file) => file.replace('/.claude/../', '/')).sort())
    const diff = outcome.files.find((file) => file.file === claude)?.diff ?? ''
    expect(diff).toContain(`+            "command": ${JSON.stringify(hookCommand(program, 'begin', 'claude-code'))}`)
    expect(readFileSync(claude, 'utf8')).toBe(CLAUDE_SETTINGS)
    expect(readdirSync(dirname(claude))).toEqual(['settings.json'])
  })

  it('points an older Retrace hook (moved package, or the README\'s hand-written one) at this one, and uninstall removes it', () => {
    const { service, request, put, program } = setup()
    const old = `{
  "hooks": {
    "UserPromptSubmit": [{ "hooks": [{ "type": "command", "command": "node /old/place/retrace/bin/retrace.js checkpoint begin" }] }],
    "Stop": [{ "hooks": [{ "type": "command", "command": "node /old/place/retrace/bin/retrace.js checkpoint end" }] }]
  }
}
`
    const claude = put('.claude/settings.json', old)
    expect(service.status()[0]?.hooks[0]).toMatchObject({ begin: 'other', end: 'other' })
    service.install(request({ agents: ['claude-code'], mcp: false }))
    expect(readFileSync(claude, 'utf8')).toBe(old.replace('node /old/place/retrace/bin/retrace.js checkpoint begin', hookCommand(program, 'begin', 'claude-code')).replace('node /old/place/retrace/bin/retrace.js checkpoint end', hookCommand(program, 'end', 'claude-code')))
    expect(service.status()[0]?.hooks[0]).toMatchObject({ begin: 'current', end: 'current' })
    service.uninstall(request({ agents: ['claude-code'], mcp: false }))
    // Nothing recorded those lists as Retrace's: emptied, they go, and the file stays.
    expect(readFileSync(claude, 'utf8')).toBe('{}\n')
  })

  it('leaves a file it cannot read as JSON alone and still connects the other agents', () => {
    const { home, service, request, put } = setup()
    const broken = put('.gemini/settings.json', '{ "general": { "vimMode": true ')
    const outcome = service.install(request({ agents: ['gemini', 'cursor'] }))
    expect(outcome.problems).toEqual([{ agent: 'gemini', message: expect.stringContaining(`${broken} is not valid JSON`) as string }])
    expect(readFileSync(broken, 'utf8')).toBe('{ "general": { "vimMode": true ')
    expect(readdirSync(dirname(broken))).toEqual(['settings.json'])
    expect(existsSync(join(home, '.cursor/hooks.json'))).toBe(true)
  })

  it('refuses to replace an MCP server named retrace that runs something else', () => {
    const { service, request, put } = setup()
    const mine = '{ "mcpServers": { "retrace": { "command": "my-own-retrace-tool" } } }\n'
    const file = put('.cursor/mcp.json', mine)
    const outcome = service.install(request({ agents: ['cursor'] }))
    expect(outcome.problems[0]?.message).toContain('already has an MCP server named "retrace" that runs something else')
    expect(readFileSync(file, 'utf8')).toBe(mine)
  })

  it('--scope project writes the project\'s own files, and CLAUDE_CONFIG_DIR moves the user ones', () => {
    const { data, project, request, put, home } = setup()
    const configDir = join(home, 'claude-work')
    const service = new AgentConnectionsService({ dataDir: data, env: { HOME: home, CLAUDE_CONFIG_DIR: configDir } })
    service.install(request({ agents: ['claude-code', 'copilot'], scope: 'project' }))
    expect(existsSync(join(project, '.claude/settings.json'))).toBe(true)
    expect(existsSync(join(project, '.mcp.json'))).toBe(true)
    expect(existsSync(join(project, '.github/hooks/retrace.json'))).toBe(true)
    expect(existsSync(join(project, '.github/mcp.json'))).toBe(true)
    put('claude-work/settings.json', '{}')
    service.install(request({ agents: ['claude-code'] }))
    expect(parseJsonc(readFileSync(join(configDir, 'settings.json'), 'utf8'), 'settings')).toHaveProperty('hooks.Stop')
    expect(existsSync(join(configDir, '.claude.json'))).toBe(true)
    expect(existsSync(join(home, '.claude.json'))).toBe(false)
    const status = service.status(project).find((agent) => agent.agent === 'claude-code')
    expect(status?.hooks.map((file) => [file.scope, file.begin, file.end])).toEqual([
      ['user', 'current', 'current'],
      ['project', 'current', 'current']
    ])
    expect(status?.mcp.map((file) => [file.scope, file.mcp])).toEqual([
      ['user', 'current'],
      ['project', 'current']
    ])
  })
})
