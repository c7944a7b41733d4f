import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { EventMessage, MethodInput, MethodName, MethodOutput } from '../../../shared/contract'
import { checkRelPath, type RelPath } from '../../fs/paths'
import { createDispatcher } from '../../rpc/dispatcher'
import { tempDir } from '../../testing/temp-runtime'
import { agentWorkspace, type AgentWorkspace } from '../testing/agent-workspace'
import { DEFAULT_PREVIEW_WATCH, PreviewWatches } from './preview-watch'

const rel = (path: string): RelPath => checkRelPath(path)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resolves with the next change told, or null if none comes within `ms`. */
function nextChange(told: string[][], ms = 2000): Promise<string[] | null> {
  const seen = told.length
  return new Promise((resolve) => {
    const started = Date.now()
    const look = () => {
      if (told.length > seen) resolve(told[seen] ?? null)
      else if (Date.now() - started > ms) resolve(null)
      else setTimeout(look, 10)
    }
    look()
  })
}

describe('PreviewWatches: the files of an open rewind preview, watched on disk', () => {
  const cleanups: (() => void)[] = []
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup()
  })

  function setup(options = DEFAULT_PREVIEW_WATCH) {
    const dir = tempDir('retrace-watch-')
    const root = dir.path
    mkdirSync(join(root, 'src'))
    writeFileSync(join(root, 'a.txt'), 'a\n')
    writeFileSync(join(root, 'src', 'b.ts'), 'b\n')
    const told: string[][] = []
    const watches = new PreviewWatches((_id, paths) => told.push(paths), { ...options, debounceMs: 30 })
    cleanups.push(() => watches.close(), () => dir.dispose())
    return { root, told, watches }
  }

  it('tells each change to a watched file, in its folder or below, and nothing about other files', async () => {
    const { root, told, watches } = setup()
    const { watching } = watches.watch(root, [rel('a.txt'), rel('src/b.ts'), rel('new/deep/c.txt')])
    expect(watching).toBe(true)
    writeFileSync(join(root, 'src', 'b.ts'), 'b, edited\n')
    expect(await nextChange(told)).toEqual(['src/b.ts'])
    // Several writes close together are told once.
    writeFileSync(join(root, 'a.txt'), '1\n')
    writeFileSync(join(root, 'a.txt'), '2\n')
    expect(await nextChange(told)).toEqual(['a.txt'])
    await sleep(100)
    expect(told).toHaveLength(2)
    // Another file in a watched folder, an editor's temp file: not the preview's.
    writeFileSync(join(root, 'other.txt'), 'x\n')
    writeFileSync(join(root, 'src', '.b.ts.swp'), 'x\n')
    expect(await nextChange(told, 300)).toBeNull()
    // A file whose folder is missing: seen from the nearest folder that exists, as that folder appears.
    mkdirSync(join(root, 'new'))
    expect(await nextChange(told)).toEqual(['new/deep/c.txt'])
  })

  it('stops at unwatch, at the end of an unrenewed lease, and past its limits', async () => {
    const { root, told, watches } = setup({ ...DEFAULT_PREVIEW_WATCH, leaseMs: 150, maxFolders: 1, maxWatches: 2 })
    const { watchId } = watches.watch(root, [rel('a.txt')])
    expect(watches.unwatch(watchId)).toBe(true)
    expect(watches.unwatch(watchId)).toBe(false)
    writeFileSync(join(root, 'a.txt'), 'after\n')
    expect(await nextChange(told, 300)).toBeNull()

    // Renewing keeps one watch; not renewing ends it.
    const renewed = watches.watch(root, [rel('a.txt')])
    await sleep(100)
    expect(watches.watch(root, [rel('a.txt')], renewed.watchId)).toEqual({ watchId: renewed.watchId, watching: true })
    await sleep(100)
    expect(watches.size).toBe(1)
    await sleep(150)
    expect(watches.size).toBe(0)

    // More folders than allowed: not watched, and said so.
    expect(watches.watch(root, [rel('a.txt'), rel('src/b.ts')]).watching).toBe(false)
    // More watches than allowed: the oldest ends.
    const first = watches.watch(root, [rel('a.txt')])
    watches.watch(root, [rel('a.txt')])
    watches.watch(root, [rel('a.txt')])
    expect(watches.size).toBe(2)
    expect(watches.unwatch(first.watchId)).toBe(false)
  })
})

describe('rewind.watchPreview', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  it('pushes rewind.previewChanged with the watch id when a preview’s file changes, until unwatched', async () => {
    ws = agentWorkspace({ 'notes.md': 'one\n' })
    const dispatch = createDispatcher<null>({ handlers: ws.rt.handlers, authorize: () => null })
    const call = async <K extends MethodName>(method: K, input: MethodInput<K>): Promise<MethodOutput<K>> => {
      const result = await dispatch(method, input, null)
      if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code })
      return result.data as MethodOutput<K>
    }
    const told: string[][] = []
    const ids: string[] = []
    const unsubscribe = ws.rt.feed.subscribe((event: EventMessage) => {
      if (event.name !== 'rewind.previewChanged') return
      ids.push(event.payload.watchId)
      told.push(event.payload.paths)
    })
    try {
      const pathId = Buffer.from('notes.md').toString('base64')
      const { watchId, watching } = await call('rewind.watchPreview', { workspaceId: ws.workspaceId, pathIds: [pathId] })
      expect(watching).toBe(true)
      ws.user.write('notes.md', 'edited\n')
      expect(await nextChange(told)).toEqual(['notes.md'])
      expect(ids).toEqual([watchId])
      expect(await call('rewind.unwatchPreview', { watchId })).toEqual({ closed: true })
      ws.user.write('notes.md', 'again\n')
      expect(await nextChange(told, 400)).toBeNull()
      // Nothing outside the workspace, nor in another one.
      await expect(call('rewind.watchPreview', { workspaceId: ws.workspaceId, pathIds: [Buffer.from('../elsewhere').toString('base64')] })).rejects.toMatchObject({ code: 'VALIDATION' })
      await expect(call('rewind.watchPreview', { workspaceId: ws.workspaceId + 99, pathIds: [pathId] })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    } finally {
      unsubscribe()
    }
  })
})
