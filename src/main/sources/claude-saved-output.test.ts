import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SAVED_OUTPUT_MAX_BYTES } from './claude-code/saved-output'
import { contractCaller, importTestbed } from './testing/import-testbed'
import { ClaudeHome } from './testing/claude-home'

// Outputs Claude Code moved to `<session>/tool-results/`, the pointer texts as real sessions show
// them (exported transcripts of Claude Code 2.1.x, quoted in docs/formats.md §2.1): written here
// by the test's writer, not taken from a real session folder (none is public with its folder).

const { tempDir, runtime } = importTestbed('retrace-saved-output-')
const CWD = '/work/saved-output'

function pointer(path: string, preview: string): string {
  return `<persisted-output>\nOutput too large (1.1MB). Full output saved to: ${path}\n\nPreview (first 2KB):\n${preview}\n</persisted-output>`
}

/** Hashes of every file under `dir`: the agent's files must stay byte-identical. */
function hashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name)
    if (entry.isFile()) out[path] = createHash('sha256').update(readFileSync(path)).digest('hex')
  }
  return out
}

async function importHome(home: ClaudeHome) {
  const rt = runtime({ claude: home.root })
  const workspaceId = rt.store.workspaces.open(CWD, 'ws')
  const report = await rt.imports.importWorkspace(workspaceId)
  const call = contractCaller(rt)
  const sessions = rt.store.sessions.list({ workspaceId, limit: 50, includeWarmups: true }).items
  const results = async (sessionId: string) => (await call('transcript.page', { sessionId, limit: 500 })).items.filter((m) => m.role === 'tool_result')
  return { rt, workspaceId, report, call, sessions, results }
}

describe('tool outputs Claude Code moved to tool-results/', () => {
  it('shows the saved file as the result, finds its words in search, and leaves the files untouched', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const session = home.session(CWD)
    const folder = join(session.path.replace(/\.jsonl$/, ''), 'tool-results')
    mkdirSync(folder, { recursive: true })
    const whole = `${'line of output\n'.repeat(50_000)}the zanzibar marker at the very end\n`
    writeFileSync(join(folder, 'becen6orv.txt'), whole)
    // An MCP result is saved as its JSON array of content blocks; the pointer ends a sentence.
    writeFileSync(join(folder, 'mcp-plugin_wonk_wonk-wonk_ls-1771474681460.txt'), JSON.stringify([{ type: 'text', text: 'listing of quagga files' }]))
    session.prompt('list everything')
    // A Windows path with a space in the user's folder: only the file name counts.
    session.tool('Bash', { command: 'find /' }, { stdout: 'line of output', stderr: '', interrupted: false }, pointer(`C:\\Users\\Anant Gupta\\.claude\\projects\\x\\${session.sessionId}\\tool-results\\becen6orv.txt`, 'line of output'))
    session.tool(
      'mcp__wonk__ls',
      { path: 'src' },
      'Error',
      `Error: result (374,984 characters) exceeds maximum allowed tokens. Output has been saved to /home/u/.claude/projects/p/${session.sessionId}/tool-results/mcp-plugin_wonk_wonk-wonk_ls-1771474681460.txt.\nFormat: JSON array with schema: [{type: string, text: string}]`
    )
    // Later Bash results name the file in toolUseResult.persistedOutputPath (the writing machine's path).
    writeFileSync(join(folder, 'b7x2k.txt'), 'the wombat count is 12')
    session.tool('Bash', { command: 'count' }, { stdout: 'the wombat', stderr: '', persistedOutputPath: '/sandbox/p/tool-results/b7x2k.txt', persistedOutputSize: 22 }, 'the wombat')
    // Named but gone (Claude Code purges old sessions' folders): the preview stays.
    session.tool('Bash', { command: 'ls' }, { stdout: '' }, pointer(`/h/.claude/projects/p/${session.sessionId}/tool-results/gone.txt`, 'the preview only'))
    const before = hashes(home.root)

    const { sessions, results, call, workspaceId } = await importHome(home)
    const [main] = sessions
    if (!main) throw new Error('no session')
    const shown = await results(main.id)
    expect(shown[0]?.content.length).toBe(Math.min(Buffer.byteLength(whole), SAVED_OUTPUT_MAX_BYTES))
    expect(shown[0]?.content.endsWith('the zanzibar marker at the very end\n')).toBe(true)
    expect(shown[1]?.content).toBe('listing of quagga files')
    expect(shown[2]?.content).toBe('the wombat count is 12')
    expect(shown[3]?.content).toContain('Preview (first 2KB):\nthe preview only')

    const hits = await call('search.messages', { query: 'zanzibar', workspaceId })
    expect(hits.items.map((hit) => hit.sessionId)).toEqual([main.id])
    expect((await call('search.messages', { query: 'quagga', workspaceId })).items).toHaveLength(1)
    expect(hashes(home.root)).toEqual(before)
  })

  it('reads only plain files in the session’s own folder: not a path elsewhere, a link, or a folder', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const secret = join(tempDir(), 'secret.txt')
    writeFileSync(secret, 'private key material')
    const session = home.session(CWD)
    const sessionDir = session.path.replace(/\.jsonl$/, '')
    const folder = join(sessionDir, 'tool-results')
    mkdirSync(folder, { recursive: true })
    symlinkSync(secret, join(folder, 'link.txt'))
    mkdirSync(join(folder, 'dir.txt'))
    writeFileSync(join(sessionDir, 'beside.txt'), 'beside the folder')
    session.prompt('go')
    // Each pointer names something Retrace must not read.
    for (const path of [secret, join(folder, 'link.txt'), join(folder, 'dir.txt'), `${folder}/../beside.txt`, `${folder}/..`]) {
      session.tool('Bash', { command: 'cat' }, { stdout: '' }, pointer(path, 'preview'))
    }
    const { sessions, results } = await importHome(home)
    const shown = await results(sessions[0]?.id ?? '')
    expect(shown).toHaveLength(5)
    for (const result of shown) {
      expect(result.content).toContain('Preview (first 2KB):\npreview')
      expect(result.content).not.toContain('private key material')
      expect(result.content).not.toContain('beside the folder')
    }
  })

  it('reads a sub-agent’s saved output from its session’s folder (sub-agents share it)', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const session = home.session(CWD)
    const sessionDir = session.path.replace(/\.jsonl$/, '')
    session.prompt('delegate')
    session.task('look around', 'a1b2c3d4e5f6a7b8c')
    mkdirSync(join(sessionDir, 'tool-results'), { recursive: true })
    writeFileSync(join(sessionDir, 'tool-results', 'toolu_agent.txt'), 'the okapi output of the agent')
    const agentFile = join(sessionDir, 'subagents', 'agent-a1b2c3d4e5f6a7b8c.jsonl')
    const base = { isSidechain: true, agentId: 'a1b2c3d4e5f6a7b8c', userType: 'external', cwd: CWD, sessionId: session.sessionId, version: '2.1.39', timestamp: '2026-02-01T00:00:00.000Z' }
    const call = { ...base, type: 'assistant', uuid: 'ag-3', parentUuid: 'a1b2c3d4e5f6a7b8c-2', message: { id: 'msg_ag3', role: 'assistant', model: 'claude-test', content: [{ type: 'tool_use', id: 'toolu_agent', name: 'Bash', input: { command: 'ls -R' } }] } }
    const result = { ...base, type: 'user', uuid: 'ag-4', parentUuid: 'ag-3', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_agent', content: pointer(`/x/${session.sessionId}/tool-results/toolu_agent.txt`, 'the') }] } }
    writeFileSync(agentFile, `${readFileSync(agentFile, 'utf8')}${JSON.stringify(call)}\n${JSON.stringify(result)}\n`)
    expect(statSync(agentFile).size).toBeGreaterThan(0)

    const { sessions, results } = await importHome(home)
    const agent = sessions.find((s) => s.kind === 'sub-agent')
    expect((await results(agent?.id ?? '')).map((m) => m.content)).toContain('the okapi output of the agent')
  })
})
