import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseAgentTime } from './agent-time'
import { discoverHeadlessAgentFiles, discoverHeadlessAgentWorkspace, headlessAgentRoots } from './discover'
import { readHeadlessMemory } from './memory'
import { copyHome, HEADLESS_HOME, headlessExpected } from './testing/headless-fixture'

describe('the headless agent memory', () => {
  it('home: its 6 keys, sorted, with their values', () => {
    const memory = readHeadlessMemory(HEADLESS_HOME)
    expect(memory.problems).toEqual([])
    expect(memory.entries).toHaveLength(headlessExpected().totals.memory_keys)
    expect(memory.entries).toEqual([
      { key: 'digest.last_sent', value: '2025-11-03' },
      { key: 'project.current', value: 'ledger' },
      { key: 'project.ledger.changelog_style', value: 'keep-a-changelog' },
      { key: 'project.ledger.last_release', value: 'v1.4.0' },
      { key: 'user.name', value: 'Sam' },
      { key: 'user.preferences.timezone', value: 'America/New_York' }
    ])
  })

  it('a missing file is no memory and no problem; a non-string value is shown as JSON', () => {
    expect(readHeadlessMemory('/nonexistent/.agent')).toEqual({ entries: [], problems: [] })
    const dir = mkdtempSync(join(tmpdir(), 'retrace-headless-mem-'))
    try {
      writeFileSync(join(dir, 'memory.json'), '{"b": 2, "a": {"x": true}}')
      expect(readHeadlessMemory(dir).entries).toEqual([{ key: 'a', value: '{"x":true}' }, { key: 'b', value: '2' }])
      writeFileSync(join(dir, 'memory.json'), '["not", "a", "map"]')
      expect(readHeadlessMemory(dir)).toEqual({ entries: [], problems: ['memory.json is not a JSON object of keys: no memory keys read'] })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('finding the headless agent home', () => {
  let dir = ''
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = ''
  })

  it('roots: $AGENT_HOME, else ~/.agent', () => {
    expect(headlessAgentRoots({ HOME: '/home/sam' })).toEqual(['/home/sam/.agent'])
    expect(headlessAgentRoots({ HOME: '/home/sam', AGENT_HOME: '/srv/agent' })).toEqual(['/srv/agent'])
  })

  it('the home opened as a workspace, or named by the roots; discoverAll files it under the home folder', async () => {
    dir = mkdtempSync(join(tmpdir(), 'retrace-headless-disc-'))
    const home = copyHome(HEADLESS_HOME, dir)
    const [file] = await discoverHeadlessAgentWorkspace(home, ['/nonexistent/.agent'])
    expect(file).toMatchObject({ source: 'headless-agent', path: join(home, 'sessions.db'), cwd: home, role: 'main', fingerprint: expect.stringMatching(/^\d+:[\d.]+:0:0:\d+:[\d.]+:[\d.]+$/) as string })
    expect(await discoverHeadlessAgentFiles([home, join(dir, 'nothing-here')])).toEqual([file])
    // Any other folder: the sessions table records no working directory to claim sessions by.
    const project = join(dir, 'project')
    mkdirSync(project)
    expect(await discoverHeadlessAgentWorkspace(project, [home])).toEqual([])
    // A root is an agent home even without memory.json or checkpoints/.
    const bare = join(dir, 'bare')
    mkdirSync(bare)
    writeFileSync(join(bare, 'sessions.db'), '')
    expect(await discoverHeadlessAgentWorkspace(bare, [bare])).toHaveLength(1)
    expect(await discoverHeadlessAgentWorkspace(bare, [])).toEqual([])
  })
})

describe('the agent times', () => {
  it('go-sqlite3 text, RFC 3339, Go time.String(), unix seconds; anything else is unknown', () => {
    expect(parseAgentTime('2026-03-10 09:14:02.418435873-04:00')).toBe(Date.parse('2026-03-10T13:14:02.418Z'))
    expect(parseAgentTime('2026-03-10T09:14:04.8628-04:00')).toBe(Date.parse('2026-03-10T13:14:04.862Z'))
    expect(parseAgentTime('2026-03-12T21:00:00Z')).toBe(Date.parse('2026-03-12T21:00:00Z'))
    expect(parseAgentTime('2026-03-10 09:14:02.5 -0400 EDT')).toBe(Date.parse('2026-03-10T13:14:02.500Z'))
    expect(parseAgentTime('2026-03-12 21:00:00')).toBe(Date.parse('2026-03-12T21:00:00Z'))
    expect(parseAgentTime(1773349200)).toBe(Date.parse('2026-03-12T21:00:00Z'))
    for (const bad of ['not a date', 'yesterday', '', null, -5, {}]) expect(parseAgentTime(bad)).toBeUndefined()
  })
})
