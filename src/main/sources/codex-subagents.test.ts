import { createHash } from 'node:crypto'
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { contractCaller, importTestbed } from './testing/import-testbed'

// Writer-derived Codex 0.154.0 rollouts (fixtures/codex/paginated/PROVENANCE.txt): a paginated
// parent thread that spawned a child thread, and the session_index.jsonl naming the parent.
const HOME = fileURLToPath(new URL('../../../fixtures/codex/paginated/paginated', import.meta.url))
const CWD = '/work/project'
const PARENT = '01a0b3da-c522-7af2-8a6d-2e1aed53b269'
const CHILD = '01a0b3db-1f4e-7c10-9a55-5b0e3c7d8a12'

const { tempDir, runtime } = importTestbed('retrace-codex-subagents-')

/** sha256 and mtime of every file under a folder: what "never written" is checked against. */
function fingerprint(root: string): Record<string, string> {
  const result: Record<string, string> = {}
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) visit(path)
      else result[path] = `${createHash('sha256').update(readFileSync(path)).digest('hex')} ${statSync(path).mtimeMs}`
    }
  }
  visit(root)
  return result
}

async function imported() {
  const home = join(tempDir(), 'codex')
  cpSync(HOME, home, { recursive: true })
  const before = fingerprint(home)
  const rt = runtime({ codex: home })
  const workspaceId = rt.store.workspaces.open(CWD, 'project')
  const report = await rt.imports.importWorkspace(workspaceId)
  return { rt, workspaceId, report, home, before }
}

describe('Codex child threads and thread names', () => {
  it('imports a child thread as a sub-agent session below its parent, at the spawn call', async () => {
    const { rt, workspaceId, report, home, before } = await imported()
    // Only the patch of a file this test has no copy of (src/upload.ts: the rollout's edit has no before).
    expect(report.skipped).toEqual([])
    expect(report.changesNotJournaled.map((s) => s.reason)).toEqual(['file change not captured (its earlier content is unknown): src/upload.ts'])
    const parent = rt.store.sessions.bySourceId(workspaceId, 'codex', PARENT)
    const child = rt.store.sessions.bySourceId(workspaceId, 'codex', CHILD)
    expect(parent).toMatchObject({ kind: 'main', depth: 0 })
    const spawnSeq = rt.store.messages.seqOfToolCall(parent!.rowId, 'call_spawn_1')
    expect(spawnSeq).toBeGreaterThan(0)
    expect(child).toMatchObject({ kind: 'sub-agent', parentId: parent!.id, depth: 1, forkSeq: spawnSeq })
    // Untitled by the index: named after the task the parent gave it, its first prompt.
    expect(child!.title).toBe('Write a unit test that shows upload() retries a failed request three times.')

    // Through the contract, as the window sees it: the child hangs below its parent.
    const call = contractCaller(rt)
    const listed = await call('sessions.list', { workspaceId })
    expect(listed.items.map((s) => [s.kind, s.parentId === null ? null : s.parentId === parent!.id ? 'parent' : 'other']).sort()).toEqual([
      ['main', null],
      ['sub-agent', 'parent']
    ])
    expect(fingerprint(home)).toEqual(before)
  })

  it('moves a child imported before its spawn call was written to that call once it is', async () => {
    const home = join(tempDir(), 'codex')
    cpSync(HOME, home, { recursive: true })
    const parentPath = join(home, 'sessions/2026/09/18/rollout-2026-09-18T09-30-54-01a0b3da-c522-7af2-8a6d-2e1aed53b269.jsonl')
    const text = readFileSync(parentPath, 'utf8')
    // As a live import finds it: the parent written up to its spawn call, the child already there.
    const cut = text.indexOf('\n', text.indexOf('"call_id":"call_spawn_1"')) + 1
    writeFileSync(parentPath, text.slice(0, cut))
    const rt = runtime({ codex: home })
    const workspaceId = rt.store.workspaces.open(CWD, 'project')
    await rt.imports.importWorkspace(workspaceId)
    const parent = rt.store.sessions.bySourceId(workspaceId, 'codex', PARENT)!
    expect(rt.store.sessions.bySourceId(workspaceId, 'codex', CHILD)).toMatchObject({ kind: 'sub-agent', parentId: parent.id, forkSeq: null })

    appendFileSync(parentPath, text.slice(cut))
    await rt.imports.importWorkspace(workspaceId)
    const spawnSeq = rt.store.messages.seqOfToolCall(parent.rowId, 'call_spawn_1')
    expect(spawnSeq).toBeGreaterThan(0)
    expect(rt.store.sessions.bySourceId(workspaceId, 'codex', CHILD)).toMatchObject({ kind: 'sub-agent', parentId: parent.id, forkSeq: spawnSeq })
  })

  it("hangs a child's own child below it (depth 2), though it started last", async () => {
    const home = join(tempDir(), 'codex')
    cpSync(HOME, home, { recursive: true })
    const id = '01a0b3dc-7777-7000-8000-000000000002'
    const line = (type: string, payload: unknown) => JSON.stringify({ timestamp: '2026-09-18T09:31:25.000Z', type, payload })
    writeFileSync(
      join(home, `sessions/2026/09/18/rollout-2026-09-18T09-31-25-${id}.jsonl`),
      [
        line('session_meta', { id, timestamp: '2026-09-18T09:31:25.000Z', cwd: CWD, cli_version: '0.154.0', source: { subagent: { thread_spawn: { parent_thread_id: CHILD, depth: 2 } } }, history_mode: 'paginated' }),
        line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list the upload tests' }] }),
        line('event_msg', { type: 'item_completed', thread_id: id, turn_id: 't', item: { type: 'UserMessage', id: 'u', content: [{ type: 'text', text: 'list the upload tests', text_elements: [] }] } }),
        line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'test/upload.test.ts' }] })
      ].join('\n') + '\n'
    )
    const rt = runtime({ codex: home })
    const workspaceId = rt.store.workspaces.open(CWD, 'project')
    await rt.imports.importWorkspace(workspaceId)
    const child = rt.store.sessions.bySourceId(workspaceId, 'codex', CHILD)
    expect(rt.store.sessions.bySourceId(workspaceId, 'codex', id)).toMatchObject({ kind: 'sub-agent', parentId: child?.id, depth: 2, title: 'list the upload tests' })
    expect(child).toMatchObject({ kind: 'sub-agent', depth: 1 })
  })

  it('leaves a child thread whose parent rollout is gone a root sub-agent that names its parent', async () => {
    const home = join(tempDir(), 'codex')
    cpSync(HOME, home, { recursive: true })
    rmSync(join(home, 'sessions/2026/09/18/rollout-2026-09-18T09-30-54-01a0b3da-c522-7af2-8a6d-2e1aed53b269.jsonl'))
    const rt = runtime({ codex: home })
    const workspaceId = rt.store.workspaces.open(CWD, 'project')
    await rt.imports.importWorkspace(workspaceId)
    const [child] = rt.store.sessions.list({ workspaceId, limit: 10 }).items
    expect(child).toMatchObject({ kind: 'sub-agent', parentId: null, missingParent: PARENT })
  })

  it('titles a session with its latest session_index.jsonl name, and again after a rename', async () => {
    const { rt, workspaceId, home, before } = await imported()
    expect(rt.store.sessions.bySourceId(workspaceId, 'codex', PARENT)?.title).toBe('Uploader retry review')
    expect(fingerprint(home)).toEqual(before)

    // A rename appends to the index and leaves the rollout alone: the next import retitles it.
    appendFileSync(join(home, 'session_index.jsonl'), `{"id":"${PARENT}","thread_name":"Retry constant renamed","updated_at":"2026-09-18T10:00:00Z"}\n`)
    const again = await rt.imports.importWorkspace(workspaceId)
    expect(again.files).toBe(0)
    expect(rt.store.sessions.bySourceId(workspaceId, 'codex', PARENT)?.title).toBe('Retry constant renamed')
  })
})
