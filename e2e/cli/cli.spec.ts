import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { expect, test } from '@playwright/test'
import { mcpServerCommand } from '../../src/main/mcp/launch'
import { ClaudeHome, FIXTURES } from '../../src/main/sources/testing/claude-home'
import { noAgentHomes, PROJECT_ROOT, startRetraceServer } from '../support/retrace-server'

const BIN = join(PROJECT_ROOT, 'bin/retrace.js')
const SYSTEM_NODE = '/usr/bin/node'
const isRoot = process.getuid?.() === 0

function systemNodeMajor(): number | null {
  if (!existsSync(SYSTEM_NODE)) return null
  const result = spawnSync(SYSTEM_NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' })
  return result.status === 0 ? Number(result.stdout.split('.')[0]) : null
}

test.describe('the retrace command (built CLI)', () => {
  test('starts from an older system Node by re-running itself on the bundled Node 22', () => {
    const major = systemNodeMajor()
    test.skip(major === null || major >= 22, `Skipped: the system Node (${SYSTEM_NODE}) is ${major ?? 'missing'}, so there is no older Node to start from.`)
    const result = spawnSync(SYSTEM_NODE, [BIN, 'search', 'anything', '--json', '--data-dir', mkdtempSync(join(tmpdir(), 'retrace-cli-'))], { encoding: 'utf8' })
    // A search needs better-sqlite3, which would crash on Node < 22: success proves the re-exec.
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual([])
  })

  test('refuses a folder the user cannot read, naming it (as an unprivileged user)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'retrace-cli-'))
    try {
      chmodSync(dir, 0o777)
      const locked = join(dir, 'locked')
      mkdirSync(locked)
      chmodSync(locked, 0o000)
      // root reads everything, so run as `nobody` to meet the permission check for real.
      const command = isRoot ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath] : [process.execPath]
      const [program = '', ...prefix] = command
      const result = spawnSync(program, [...prefix, BIN, 'sessions', locked, '--data-dir', join(dir, 'data')], { encoding: 'utf8' })
      expect(result.status).toBe(1)
      expect(result.stderr.trim()).toBe(`retrace: Retrace cannot read the folder ${locked}: permission denied. Check its permissions.`)
      chmodSync(locked, 0o755)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('serve prints its URL, keeps its data in --data-dir, and exits cleanly on Ctrl+C', async () => {
    const server = await startRetraceServer(['--demo'])
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/)
    expect(existsSync(join(server.dataDir, 'retrace.db'))).toBe(true)
    expect(existsSync(join(server.dataDir, 'demo-workspace/src/search.ts'))).toBe(true)
    expect(await server.stop()).toBe(0)
  })

  test('mcp: the built command, started as mcpServerCommand() says, answers an MCP client on stdio', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'retrace-cli-mcp-'))
    try {
      // The real Claude Code session of fixtures/claude-code/codemie, recorded in a folder of this test's.
      const folder = join(dir, 'private')
      mkdirSync(folder)
      const home = new ClaudeHome(join(dir, 'claude'))
      const project = home.addFixtureProject(join(FIXTURES, 'claude-code/codemie/-tmp-private'), folder)
      for (const name of readdirSync(project).filter((entry) => entry.endsWith('.jsonl'))) {
        writeFileSync(join(project, name), readFileSync(join(project, name), 'utf8').replaceAll('/tmp/private', folder))
      }
      const { command, args } = mcpServerCommand({ dataDir: join(dir, 'data') })
      expect(args).toEqual([BIN, 'mcp', '--data-dir', join(dir, 'data')])
      const env = Object.fromEntries(Object.entries({ ...process.env, ...noAgentHomes(dir), CLAUDE_CONFIG_DIR: home.root, HOME: join(dir, 'home'), RETRACE_HOME: '' }).filter((entry): entry is [string, string] => entry[1] !== undefined))
      const client = new Client({ name: 'e2e', version: '1.0.0' })
      await client.connect(new StdioClientTransport({ command, args, env, stderr: 'ignore' }))
      try {
        const tools = (await client.listTools()).tools.map((tool) => tool.name).sort()
        expect(tools).toEqual(['blame', 'diff', 'file_history', 'list_sessions', 'preview_rewind', 'preview_undo', 'read_turn', 'search_history'])
        const found = await client.callTool({ name: 'search_history', arguments: { query: 'one liner comment' } })
        expect(found.isError).toBeFalsy()
        expect((found.structuredContent as { hits: { turn: number; sessionTitle: string }[] }).hits[0]).toMatchObject({ turn: 2, sessionTitle: 'create hello.py, md and js' })
      } finally {
        await client.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
