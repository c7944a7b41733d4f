import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import type { EventMessage } from '../../shared/contract'
import { databaseOf } from '../store/raw-database'
import { importedKey } from '../store/repositories/recorded-files'
import { encodeProjectFolder } from './claude-code/project-folder'
import { FIXTURES } from './testing/claude-home'
import { copiedHistories, latestTimestamp, RECORDED } from './testing/copied-histories'
import { contractCaller, importTestbed } from './testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-recorded-index-')

const ADDED = '/home/someone/work/added-later'
const ADDED_ID = '0a0a0a0a-0000-4000-8000-000000000001'

/** spotter's real `short` session, recorded in `cwd`, as a new session file of `~/.claude`. */
function addSession(claudeRoot: string, cwd: string): { path: string; text: string } {
  const text = readFileSync(join(FIXTURES, 'claude-code/spotter/short.jsonl'), 'utf8').replaceAll('"cwd":"/home/marco/projects/spotter"', `"cwd":"${cwd}"`)
  const folder = join(claudeRoot, 'projects', encodeProjectFolder(cwd))
  mkdirSync(folder, { recursive: true })
  const path = join(folder, `${ADDED_ID}.jsonl`)
  writeFileSync(path, text)
  return { path, text }
}

describe("the kept index of the workspaces the agents' histories record (R66)", () => {
  it('shows a history file added, changed or removed after a listing in the next one, the feed saying so in between', async () => {
    const roots = copiedHistories(tempDir())
    const rt = runtime(roots, { env: { RETRACE_RECORDED_FRESH_MS: '1' } })
    const call = contractCaller(rt)
    const paths = async (refresh: 'wait' | 'background') => (await call('workspaces.listAll', { refresh })).items.map((item) => item.path)
    expect(await paths('wait')).toContain(RECORDED.spotter)

    await new Promise((resolve) => setImmediate(resolve)) // the feed's report of that first refresh
    const added = addSession(roots.claude, ADDED)
    const events: EventMessage[] = []
    rt.feed.subscribe((event) => events.push(event))
    // The window's listing answers from the index as it stood, and refreshes it behind.
    expect(await paths('background')).not.toContain(ADDED)
    await vi.waitFor(() => expect(events.some((event) => event.name === 'data.changed' && event.payload.entities.includes('workspaces'))).toBe(true))
    const listed = (await call('workspaces.listAll', { refresh: 'background' })).items.find((item) => item.path === ADDED)
    expect(listed).toMatchObject({ workspaceId: null, sessionCount: 1, sources: [{ source: 'claude-code', sessions: 1 }], lastActivityAt: latestTimestamp([added.text]) })

    // A line written since: its time is the workspace's last activity.
    appendFileSync(added.path, `${JSON.stringify({ type: 'system', cwd: ADDED, sessionId: ADDED_ID, timestamp: '2030-01-02T03:04:05.000Z' })}\n`)
    const changed = (await call('workspaces.listAll', { refresh: 'wait' })).items.find((item) => item.path === ADDED)
    expect(changed?.lastActivityAt).toBe(Date.parse('2030-01-02T03:04:05.000Z'))

    rmSync(added.path)
    expect(await paths('wait')).not.toContain(ADDED)
  })

  it('answers a process started later from the kept index, reading no history file', async () => {
    const roots = copiedHistories(tempDir())
    const dataDir = join(tempDir(), 'data')
    const first = runtime(roots, { dataDir })
    const before = await contractCaller(first)('workspaces.listAll', { refresh: 'wait' })
    first.close()
    await first.closed
    // Every history file gone: whatever the next process lists of them, it did not read them.
    rmSync(roots.claude, { recursive: true })
    rmSync(roots.codex, { recursive: true })
    const later = runtime(roots, { dataDir })
    const call = contractCaller(later)
    const cold = await call('workspaces.listAll', { refresh: 'background' })
    expect(cold.items).toEqual(before.items)
    expect(cold.items.map((item) => item.path)).toContain(RECORDED.spotter)

    // Its refresh finds them gone.
    expect(await later.recorded.refresh()).toBe(true)
    expect((await call('workspaces.listAll', { refresh: 'background' })).items).toEqual([])
  })
})

describe("the recorded index's first fill after an import", () => {
  it("looks up every imported file's last activity in one query, as the lookup of each gives it", async () => {
    const roots = copiedHistories(tempDir())
    const rt = runtime(roots)
    await rt.imports.importAll()
    const { recordedFiles } = rt.store
    const files = databaseOf(rt.store).prepare('SELECT source, path, file_size AS size, mtime_ms AS mtimeMs FROM import_files').all() as { source: string; path: string; size: number; mtimeMs: number }[]
    expect(files.length).toBeGreaterThan(3)
    const all = recordedFiles.importedActivities()
    for (const file of files) {
      const one = recordedFiles.importedActivity(file.source, file.path, file.size, file.mtimeMs)
      expect(all.get(importedKey(file.source, file.path, file.size, file.mtimeMs)) ?? null).toBe(one)
    }
    expect([...all.values()].some((at) => at > 0)).toBe(true)
  })
})
