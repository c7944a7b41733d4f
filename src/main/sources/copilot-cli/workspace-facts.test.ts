import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { openStore } from '../../store/store'
import { DiscoveryCache } from '../discovery-cache'
import { discoverCopilotFiles } from './discover'
import { createCopilotParser } from './parser'

// The writer-built session (fixtures/copilot-cli/PROVENANCE.txt), in a COPILOT_HOME of its own.
const FIXTURE = join(FIXTURES, 'copilot-cli', 'writer-1.0', 'session-state')
const MAIN = '5d0f4b7e-2c41-4f7a-9a55-0c9e3f6b1a21'
const RECORDED_CWD = '/home/dev/notes-app'
const tempDirectory = () => mkdtempSync(join(tmpdir(), 'retrace-copilot-cache-'))

describe('what Copilot CLI says of a session besides its events', () => {
  const { tempDir, runtime } = importTestbed('retrace-copilot-facts-')

  /** The main session only, its paths moved to a temporary repository; `subfolder`: started there. */
  function copy(options: { subfolder?: string; yaml?: string } = {}) {
    const repository = tempDir()
    const home = join(tempDir(), 'copilot-home')
    const folder = join(home, 'session-state', MAIN)
    mkdirSync(folder, { recursive: true })
    cpSync(join(FIXTURE, MAIN), folder, { recursive: true })
    const cwd = options.subfolder ? join(repository, options.subfolder) : repository
    const events = readFileSync(join(folder, 'events.jsonl'), 'utf8').replaceAll(RECORDED_CWD, repository).replaceAll(`"cwd":"${repository}"`, `"cwd":"${cwd}"`)
    writeFileSync(join(folder, 'events.jsonl'), events)
    const yaml = readFileSync(join(folder, 'workspace.yaml'), 'utf8').replaceAll(RECORDED_CWD, repository).replace(`cwd: ${repository}`, `cwd: ${cwd}`)
    writeFileSync(join(folder, 'workspace.yaml'), yaml + (options.yaml ?? ''))
    writeFileSync(join(repository, 'TODO.md'), '# TODO\n\n- [x] sync notes\n- [ ] add search\n')
    return { repository, cwd, call: contractCaller(runtime({}, { env: { COPILOT_HOME: home } })) }
  }

  it('titles the session with workspace.yaml\'s name (Copilot\'s own, or the one the user gave)', async () => {
    const { repository, call } = copy({ yaml: 'name: "Tidy the \\"TODO\\" list"\nuser_named: true\n' })
    const opened = await call('workspaces.open', { path: repository })
    await call('imports.run', { workspaceId: opened.id, sources: ['copilot-cli'] })
    const main = (await call('sessions.list', { workspaceId: opened.id, source: 'copilot-cli' })).items.find((session) => session.kind !== 'sub-agent')
    expect(main?.title).toBe('Tidy the "TODO" list')
  })

  it('places a session started in a subfolder of a repository in the repository, whose files it wrote', async () => {
    const { repository, cwd, call } = copy({ subfolder: join('packages', 'app') })
    mkdirSync(cwd, { recursive: true })
    const recorded = (await call('workspaces.listAll', {})).items.map((item) => item.path)
    expect(recorded).toContain(repository)
    expect(recorded).not.toContain(cwd)
    const opened = await call('workspaces.open', { path: repository })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['copilot-cli'] })
    // TODO.md, at the repository's root, created then edited.
    expect(report).toMatchObject({ fileChanges: 2, changesNotJournaled: [] })
    // The subfolder opened as a workspace of its own still shows the session started in it: the
    // repository's, not a copy of it (R59: one session, one row).
    const subfolder = await call('workspaces.open', { path: cwd })
    expect(await call('imports.run', { workspaceId: subfolder.id, sources: ['copilot-cli'] })).toMatchObject({ sessions: 0 })
    const shown = (await call('sessions.list', { workspaceId: subfolder.id, source: 'copilot-cli', includeWarmups: true })).items
    expect(shown.map((session) => session.workspaceId)).toEqual([opened.id, opened.id])
  })
})

describe('what discovery kept of a Copilot CLI session before', () => {
  it('is read again, so a store made by an earlier version gets the name and the repository root', async () => {
    const dir = tempDirectory()
    const folder = join(dir, 'session-state', MAIN)
    mkdirSync(folder, { recursive: true })
    cpSync(join(FIXTURE, MAIN), folder, { recursive: true })
    writeFileSync(join(folder, 'workspace.yaml'), 'id: x\ncwd: /home/dev/notes-app/packages/app\ngit_root: /home/dev/notes-app\nname: Tidy the TODO list\n')
    const store = openStore(join(dir, 'data'))
    try {
      const path = join(folder, 'events.jsonl')
      // Facts as an earlier version kept them: the folder the session started in, no name.
      const earlier = new DiscoveryCache(store.discoveredFiles)
      await earlier.facts(path, () => Promise.resolve({ id: MAIN, cwd: '/home/dev/notes-app/packages/app' }))
      earlier.save()
      const [file] = await discoverCopilotFiles([join(dir, 'session-state')], undefined, new DiscoveryCache(store.discoveredFiles))
      expect(file).toMatchObject({ cwd: '/home/dev/notes-app', title: 'Tidy the TODO list' })
    } finally {
      store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('Copilot CLI events that hold no conversation', () => {
  it('counts hook and permission events as known and left out, not as format drift', () => {
    const parser = createCopilotParser()
    const event = (type: string, offset: number) => parser.feed(JSON.stringify({ type, data: { hookType: 'preToolUse' }, id: type, timestamp: '2026-07-02T09:11:00.000Z', parentId: null }), offset)
    for (const [at, type] of ['hook.start', 'hook.end', 'permission.requested', 'permission.completed'].entries()) expect(event(type, at)).toEqual([])
  })

  it('takes session.shutdown\'s input tokens as including the cache reads and writes it lists beside them', () => {
    const parser = createCopilotParser()
    const usage = { inputTokens: 71282, outputTokens: 900, cacheReadTokens: 35495, cacheWriteTokens: 35783 }
    const records = parser.feed(JSON.stringify({ type: 'session.shutdown', data: { shutdownType: 'routine', modelMetrics: { 'claude-sonnet-4.5': { requests: { count: 10, cost: 2 }, usage } } }, id: 'e6', timestamp: '2026-03-06T17:08:10.900Z', parentId: 'e5' }), 0)
    expect(records).toEqual([{ kind: 'usage', offset: 0, createdAt: Date.parse('2026-03-06T17:08:10.900Z'), usage: { inputTokens: 4, outputTokens: 900, cacheReadTokens: 35495, cacheWriteTokens: 35783 } }])
  })
})
