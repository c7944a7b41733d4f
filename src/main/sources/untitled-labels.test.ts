import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contractCaller, importTestbed } from './testing/import-testbed'
import { ClaudeHome, FIXTURES } from './testing/claude-home'

// Real projects of claude-code-log's author (fixtures/claude-code/claude-code-log/PROVENANCE.txt).
const SET = join(FIXTURES, 'claude-code/claude-code-log')
const { tempDir, runtime } = importTestbed('retrace-labels-')

async function imported(project: string, cwd: string, codex?: string) {
  const home = new ClaudeHome(join(tempDir(), 'claude'))
  home.addFixtureProject(join(SET, project), cwd)
  const rt = runtime({ claude: home.root, ...(codex ? { codex } : {}) })
  const call = contractCaller(rt)
  const workspace = await call('workspaces.open', { path: cwd })
  await call('imports.run', { workspaceId: workspace.id })
  return { rt, call, workspaceId: workspace.id }
}

describe('sessions without a title, as every caller lists them', () => {
  it('labels a real session that only ran /model by the command, marked as derived', async () => {
    const { call, workspaceId } = await imported('-Users-dain-workspace-danieldemmel-me-next', '/Users/dain/workspace/danieldemmel.me-next')
    const { items } = await call('sessions.list', { workspaceId })
    const untitled = items.filter((session) => session.titleOrigin !== 'own')
    expect(untitled.map((session) => [session.title, session.titleOrigin, session.messageCount])).toEqual([['/model', 'derived', 3]])
    // The transcript header reads the same title.
    const detail = await call('sessions.get', { sessionId: untitled[0]?.id ?? '' })
    expect([detail.title, detail.titleOrigin]).toEqual(['/model', 'derived'])
    // Titled sessions keep theirs.
    expect(items.filter((session) => session.titleOrigin === 'own').every((session) => session.title !== '')).toBe(true)
  })

  it("labels Claude Code 2.0's warm-up agents, which only answered, and the empty sessions holding them, as warm-ups", async () => {
    const { call, workspaceId } = await imported('-Users-dain-workspace-JSSoundRecorder', '/Users/dain/workspace/JSSoundRecorder')
    const { items } = await call('sessions.list', { workspaceId, includeWarmups: true })
    const agents = items.filter((session) => session.warmup && session.kind === 'sub-agent')
    expect(agents.length).toBe(8)
    expect(new Set(agents.map((session) => `${session.title}|${session.titleOrigin}`))).toEqual(new Set(['Warm-up|derived']))
    // The sessions that never got a prompt and only hold them: warm-ups too.
    const shells = items.filter((session) => session.warmup && session.kind === 'main')
    expect(shells.map((session) => [session.title, session.titleOrigin, session.messageCount])).toEqual([
      ['Warm-up', 'derived', 0],
      ['Warm-up', 'derived', 0]
    ])
  })

  it('makes no session of a file opened and left before a prompt: the empty cards are warm-ups, hidden by default', async () => {
    const cwd = '/Users/dain/workspace/danieldemmel.me-next'
    // Codex's rollout of a session opened and left before a prompt: its meta and turn context only.
    const codex = join(tempDir(), 'codex')
    const day = join(codex, 'sessions/2026/01/03')
    mkdirSync(day, { recursive: true })
    const id = '019b8000-0000-7000-0000-00000000e001'
    const at = '2026-01-03T09:00:00.000Z'
    const lines = [
      { timestamp: at, type: 'session_meta', payload: { id, timestamp: at, cwd, originator: 'codex_cli_rs', cli_version: '0.77.0' } },
      { timestamp: at, type: 'turn_context', payload: { cwd, model: 'gpt-5-codex' } }
    ]
    writeFileSync(join(day, `rollout-2026-01-03T09-00-00-${id}.jsonl`), lines.map((line) => `${JSON.stringify(line)}\n`).join(''))
    const { call, workspaceId } = await imported('-Users-dain-workspace-danieldemmel-me-next', cwd, codex)
    const all = await call('sessions.list', { workspaceId, includeWarmups: true })
    expect(all.items.filter((session) => session.messageCount === 0).every((session) => session.warmup)).toBe(true)
    const shown = await call('sessions.list', { workspaceId })
    expect(shown.items.filter((session) => session.messageCount === 0)).toEqual([])
  })
})
