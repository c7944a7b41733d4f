import { afterEach, describe, expect, it } from 'vitest'
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract'
import { agentWorkspace, type AgentWorkspace } from '../journal/testing/agent-workspace'
import { createDispatcher } from '../rpc/dispatcher'

describe('rewind.fileDiff: the diff a rewind preview row opens', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  function setup() {
    ws = agentWorkspace({ 'src/app.ts': 'export const a = 1\n', 'README.md': '# app\n' })
    ws.agent.turn('add b')
    ws.agent.write('src/app.ts', 'export const a = 1\nexport const b = 2\n')
    ws.agent.write('src/b.ts', 'export default 2\n')
    ws.agent.turn('drop the readme')
    ws.agent.remove('README.md')
    const dispatch = createDispatcher<null>({ handlers: ws.rt.handlers, authorize: () => null })
    return async <K extends MethodName>(method: K, input: MethodInput<K>): Promise<MethodOutput<K>> => {
      const result = await dispatch(method, input, null)
      if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code })
      return result.data as MethodOutput<K>
    }
  }

  const pathIdOf = (plan: MethodOutput<'rewind.plan'>, path: string) => plan.items.find((item) => item.path === path)?.pathId ?? ''

  it('diffs the disk now against what the rewind writes, by lines, for a restore, a delete and a re-create', async () => {
    const call = setup()
    const sessionId = ws.writer.id
    const plan = await call('rewind.plan', { sessionId, turn: 1 })
    const of = { kind: 'turn' as const, sessionId, turn: 1 }
    const restore = await call('rewind.fileDiff', { of, pathId: pathIdOf(plan, 'src/app.ts'), side: 'rewind' })
    expect(restore).toMatchObject({ added: 0, removed: 1, binary: false, tooLarge: false })
    expect(restore.patch).toBe('@@ -1,2 +1,1 @@\n export const a = 1\n-export const b = 2')
    const deleted = await call('rewind.fileDiff', { of, pathId: pathIdOf(plan, 'src/b.ts'), side: 'rewind' })
    expect(deleted.patch).toBe('@@ -1,1 +0,0 @@\n-export default 2')
    expect(deleted.after).toBeNull()
    const created = await call('rewind.fileDiff', { of, pathId: pathIdOf(plan, 'README.md'), side: 'rewind' })
    expect(created.patch).toBe('@@ -0,0 +1,1 @@\n+# app')
    expect(created.before).toBeNull()
    // Reading for a diff writes nothing.
    expect(ws.text('src/b.ts')).toBe('export default 2\n')
    expect(ws.text('README.md')).toBeNull()
  })

  it('shows a conflict\'s change made since: what the agent left against the disk now', async () => {
    const call = setup()
    const sessionId = ws.writer.id
    ws.user.write('src/app.ts', 'export const a = 1\nexport const b = 3 // mine\n')
    const plan = await call('rewind.plan', { sessionId, turn: 1 })
    const pathId = pathIdOf(plan, 'src/app.ts')
    expect(plan.items.find((item) => item.pathId === pathId)?.conflict).not.toBeNull()
    const of = { kind: 'turn' as const, sessionId, turn: 1 }
    const yours = await call('rewind.fileDiff', { of, pathId, side: 'yours' })
    expect(yours.patch).toBe('@@ -1,2 +1,2 @@\n export const a = 1\n-export const b = 2\n+export const b = 3 // mine')
    const rewind = await call('rewind.fileDiff', { of, pathId, side: 'rewind' })
    expect(rewind.patch).toContain('-export const b = 3 // mine')
  })

  it('diffs the rows of an undo preview, and refuses a path the rewind does not cover', async () => {
    const call = setup()
    const sessionId = ws.writer.id
    const plan = await call('rewind.plan', { sessionId, turn: 2 })
    const applied = await call('rewind.apply', { sessionId, turn: 2, token: plan.token })
    const undo = await call('rewind.planUndo', { rewindId: applied.rewindId })
    const diff = await call('rewind.fileDiff', { of: { kind: 'undo', rewindId: applied.rewindId }, pathId: pathIdOf(undo, 'README.md'), side: 'rewind' })
    expect(diff.patch).toBe('@@ -1,1 +0,0 @@\n-# app')
    const elsewhere = Buffer.from('src/app.ts').toString('base64')
    await expect(call('rewind.fileDiff', { of: { kind: 'turn', sessionId, turn: 2 }, pathId: elsewhere, side: 'rewind' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('leaves the files unticked in the preview exactly as they are, reports them skipped, and undoes only what it did', async () => {
    const call = setup()
    const sessionId = ws.writer.id
    const plan = await call('rewind.plan', { sessionId, turn: 1 })
    const applied = await call('rewind.apply', { sessionId, turn: 1, token: plan.token, excluded: [pathIdOf(plan, 'src/b.ts')] })
    expect(applied.changed.map((change) => change.path).sort()).toEqual(['README.md', 'src/app.ts'])
    expect(applied.skipped.map((item) => item.path)).toEqual(['src/b.ts'])
    expect(ws.text('src/b.ts')).toBe('export default 2\n') // not deleted
    expect(ws.text('src/app.ts')).toBe('export const a = 1\n')
    expect(ws.text('README.md')).toBe('# app\n')
    const undo = await call('rewind.planUndo', { rewindId: applied.rewindId })
    expect(undo.items.map((item) => item.path).sort()).toEqual(['README.md', 'src/app.ts'])
    await call('rewind.undo', { rewindId: applied.rewindId, token: undo.token })
    expect(ws.text('src/app.ts')).toBe('export const a = 1\nexport const b = 2\n')
    expect(ws.text('README.md')).toBeNull()
    expect(ws.text('src/b.ts')).toBe('export default 2\n')
  })

  it('restores one file to a version from its history, with a preview, a diff, a conflict and an undo', async () => {
    const call = setup()
    const turn1 = await call('changes.ofTurn', { sessionId: ws.writer.id, turn: 1 })
    const app = turn1.items.find((item) => item.path === 'src/app.ts')
    const pathId = app?.pathId ?? ''
    const hash = app?.before?.hash ?? ''
    const plan = await call('rewind.planVersion', { workspaceId: ws.workspaceId, pathId, hash })
    expect(plan.items.map((item) => [item.path, item.action, item.conflict])).toEqual([['src/app.ts', 'restore', null]])
    const diff = await call('rewind.fileDiff', { of: { kind: 'version', workspaceId: ws.workspaceId, hash }, pathId, side: 'rewind' })
    expect(diff.patch).toBe('@@ -1,2 +1,1 @@\n export const a = 1\n-export const b = 2')
    // Only that file: the others the session changed stay as they are.
    const restored = await call('rewind.applyVersion', { workspaceId: ws.workspaceId, pathId, hash, token: plan.token })
    expect(restored.changed.map((change) => change.path)).toEqual(['src/app.ts'])
    expect(ws.text('src/app.ts')).toBe('export const a = 1\n')
    expect(ws.text('src/b.ts')).toBe('export default 2\n')
    const undo = await call('rewind.planUndo', { rewindId: restored.rewindId })
    await call('rewind.undo', { rewindId: restored.rewindId, token: undo.token })
    expect(ws.text('src/app.ts')).toBe('export const a = 1\nexport const b = 2\n')

    // Edited by hand since: a conflict, skipped unless chosen otherwise.
    ws.user.write('src/app.ts', 'mine\n')
    const conflicted = await call('rewind.planVersion', { workspaceId: ws.workspaceId, pathId, hash })
    expect(conflicted.items[0]?.conflict).not.toBeNull()
    const skipped = await call('rewind.applyVersion', { workspaceId: ws.workspaceId, pathId, hash, token: conflicted.token })
    expect(skipped.changed).toEqual([])
    expect(ws.text('src/app.ts')).toBe('mine\n')
    await expect(call('rewind.planVersion', { workspaceId: ws.workspaceId, pathId, hash: 'f'.repeat(64) })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('names the file that changed since the preview when it refuses a stale apply', async () => {
    const call = setup()
    const plan = await call('rewind.plan', { sessionId: ws.writer.id, turn: 1 })
    ws.user.write('src/b.ts', 'edited by hand\n')
    await expect(call('rewind.apply', { sessionId: ws.writer.id, turn: 1, token: plan.token })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'src/b.ts changed since the preview was made; nothing was written. Review the new preview.'
    })
  })
})
