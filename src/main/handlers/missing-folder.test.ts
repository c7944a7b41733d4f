import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { contractCaller, importTestbed } from '../sources/testing/import-testbed'
import { copiedHistories, latestTimestamp, RECORDED, SPOTTER_SESSION, spotterFile } from '../sources/testing/copied-histories'

const { tempDir, runtime } = importTestbed('retrace-missing-folder-')

/** Every file under a folder, read whole. */
function textsUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
}

describe('history whose folder is gone (a copied ~/.claude and ~/.codex)', () => {
  it('lists every recorded folder as a workspace: its sources, sessions, last activity by the files\' own times, folder missing', async () => {
    const roots = copiedHistories(tempDir())
    const call = contractCaller(runtime(roots))
    const { items } = await call('workspaces.listAll', {})

    expect(items.map((item) => [item.path, item.folderExists, item.workspaceId, item.sources, item.sessionCount])).toEqual([
      [RECORDED.codexNaya, false, null, [{ source: 'codex', sessions: 1 }], 1],
      [RECORDED.codexApp, false, null, [{ source: 'codex', sessions: 1 }], 1],
      [RECORDED.spotter, false, null, [{ source: 'claude-code', sessions: 3 }], 3],
      [RECORDED.codexOld, false, null, [{ source: 'codex', sessions: 1 }], 1],
      [RECORDED.codemie, false, null, [{ source: 'claude-code', sessions: 3 }], 3]
    ])
    // The copy gave every file today's time; the listing reads the times the agents wrote.
    const spotter = items.find((item) => item.path === RECORDED.spotter)
    expect(spotter?.lastActivityAt).toBe(latestTimestamp(textsUnder(spotterFile(roots.claude, ''))))
    expect(spotter?.lastActivityAt).toBe(Date.parse('2026-02-12T15:05:00.730Z'))
    expect(items.every((item) => item.refused === null && item.lastOpenedAt === null)).toBe(true)
  })

  it('opens a recorded folder that is gone, imports and lists its sessions; a path nobody recorded is refused by name', async () => {
    const roots = copiedHistories(tempDir())
    const rt = runtime(roots)
    const call = contractCaller(rt)

    const workspace = await call('workspaces.open', { path: `${RECORDED.spotter}/` })
    expect(workspace).toMatchObject({ path: RECORDED.spotter, name: 'spotter-4te' })
    const report = await call('imports.run', { workspaceId: workspace.id })
    expect(report).toMatchObject({ files: 3, sessions: 3 })
    const sessions = await call('sessions.list', { workspaceId: workspace.id })
    // The third session is the /compact agent, imported but listed with the warm-ups (R56).
    expect(sessions.items.map((s) => s.kind).sort()).toEqual(['main', 'sub-agent'])
    expect(existsSync(RECORDED.spotter)).toBe(false) // browsing made no folder

    // Opened again by path (the store knows it now) and listed as imported, counted as its list
    // counts: the /compact agent is a warm-up, left out.
    expect((await call('workspaces.open', { path: RECORDED.spotter })).id).toBe(workspace.id)
    const listed = (await call('workspaces.listAll', {})).items.find((item) => item.path === RECORDED.spotter)
    expect(listed).toMatchObject({ workspaceId: workspace.id, folderExists: false, sessionCount: 2 })

    const nobody = '/home/USER/projects/never-recorded'
    await expect(call('workspaces.open', { path: nobody })).rejects.toMatchObject({ code: 'PATH_NOT_FOUND' })
    await expect(call('workspaces.open', { path: nobody })).rejects.toThrow(`There is no folder at ${nobody}, and no agent history records it.`)
  })

  it('refuses a rewind, its preview and a fork with files in a folder that is gone, writing nothing; a fork without files works', async () => {
    const rt = runtime(copiedHistories(tempDir()))
    const call = contractCaller(rt)
    const workspace = await call('workspaces.open', { path: RECORDED.spotter })
    await call('imports.run', { workspaceId: workspace.id })
    const main = rt.store.sessions.bySourceId(workspace.id, 'claude-code', SPOTTER_SESSION)
    expect(main).toBeDefined()
    const sessionId = main?.id ?? ''
    const changed = await call('changes.ofTurn', { sessionId, turn: 1 })
    expect(changed.items.length).toBeGreaterThan(0) // there are files a rewind would write

    const refusal = `The folder of this workspace, ${RECORDED.spotter}, is not on this computer`
    await expect(call('rewind.plan', { sessionId, turn: 1 })).rejects.toMatchObject({ code: 'PATH_NOT_FOUND' })
    await expect(call('rewind.plan', { sessionId, turn: 1 })).rejects.toThrow(refusal)
    await expect(call('rewind.apply', { sessionId, turn: 1, token: 'any' })).rejects.toThrow(refusal)
    await expect(call('sessions.fork', { sessionId, turn: 2, withFiles: true })).rejects.toThrow(`retrace fork ${sessionId} --turn N`)
    expect(existsSync(RECORDED.spotter)).toBe(false)
    expect((await call('rewind.list', { sessionId })).items).toEqual([])

    const fork = await call('sessions.fork', { sessionId, turn: 2, withFiles: false, title: 'try again' })
    expect(fork.rewind).toBeNull()
    const branch = await call('sessions.get', { sessionId: fork.sessionId })
    expect(branch).toMatchObject({ kind: 'branch', title: 'try again', parent: { id: sessionId } })
    const firstTurn = await call('transcript.page', { sessionId: fork.sessionId, limit: 500 })
    expect(firstTurn.items.length).toBeGreaterThan(0)
    expect(new Set(firstTurn.items.map((m) => m.turn))).toEqual(new Set([1]))
  })

  it('writes the files a rewind would restore into another folder, as the refusal says: export with files, import-json there, rewind', async () => {
    const rt = runtime(copiedHistories(tempDir()))
    const call = contractCaller(rt)
    const gone = await call('workspaces.open', { path: RECORDED.codemie })
    await call('imports.run', { workspaceId: gone.id })
    const [session] = (await call('sessions.list', { workspaceId: gone.id })).items.filter((s) => s.kind === 'main')
    const exported = await call('export.render', { sessionId: session?.id ?? '', format: 'json', redact: false, withFiles: true })

    const elsewhere = join(tempDir(), 'private-restored')
    mkdirSync(elsewhere)
    const there = await call('workspaces.open', { path: elsewhere })
    const imported = await call('export.importJson', { workspaceId: there.id, json: exported.content })
    expect(imported.fileChanges).toBeGreaterThan(0)
    // Rewinding to before turn 2 ("update py with one liner comment") writes hello.py as the agent first wrote it.
    const plan = await call('rewind.plan', { sessionId: imported.sessionId, turn: 2 })
    expect(plan.items.map((i) => [i.path, i.action])).toEqual([['hello.py', 'create']])
    await call('rewind.apply', { sessionId: imported.sessionId, turn: 2, token: plan.token, defaultChoice: 'overwrite' })
    expect(readdirSync(elsewhere)).toEqual(['hello.py'])
    expect(readFileSync(join(elsewhere, 'hello.py'), 'utf8')).toBe('#!/usr/bin/env python3\n\ndef main():\n    print("Hello, World!")\n\nif __name__ == "__main__":\n    main()\n')
  })

  it('follows a workspace whose folder is gone: new lines arrive, nothing fails', async () => {
    const roots = copiedHistories(tempDir())
    const rt = runtime(roots, { followImports: true })
    const call = contractCaller(rt)
    const warn = vi.spyOn(console, 'warn')
    try {
      const workspace = await call('workspaces.open', { path: RECORDED.spotter })
      await vi.waitFor(() => expect(rt.store.sessions.bySourceId(workspace.id, 'claude-code', SPOTTER_SESSION)).toBeDefined(), { timeout: 20_000, interval: 100 })
      // The first import commits in chunks: count once it is over.
      await vi.waitFor(async () => expect((await call('imports.status', { workspaceId: workspace.id })).state).toBe('done'), { timeout: 20_000, interval: 100 })
      const sessionId = rt.store.sessions.bySourceId(workspace.id, 'claude-code', SPOTTER_SESSION)?.id ?? ''
      const before = (await call('sessions.get', { sessionId })).messageCount
      const file = spotterFile(roots.claude, `${SPOTTER_SESSION}.jsonl`)
      const last = JSON.parse(readFileSync(file, 'utf8').trimEnd().split('\n').at(-1) ?? '{}') as { uuid: string }
      appendFileSync(file, `${JSON.stringify({ parentUuid: last.uuid, isSidechain: false, userType: 'external', cwd: RECORDED.spotter, sessionId: SPOTTER_SESSION, version: '2.1.39', type: 'user', message: { role: 'user', content: 'One more thing, from the copy.' }, uuid: 'f0110w00-0000-4000-8000-000000000001', timestamp: '2026-02-12T15:10:00.000Z' })}\n`)
      await vi.waitFor(async () => expect((await call('sessions.get', { sessionId })).messageCount).toBe(before + 1), { timeout: 10_000, interval: 100 })
      expect((await call('imports.status', { workspaceId: workspace.id })).error).toBeNull()
      expect(warn).not.toHaveBeenCalled()
      expect(existsSync(RECORDED.spotter)).toBe(false)
    } finally {
      warn.mockRestore()
    }
  })
})
