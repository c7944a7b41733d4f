import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { agentWorkspace, type AgentWorkspace } from '../testing/agent-workspace'
import { canMountTmpfs, mountTmpfs, unmountTmpfs } from '../testing/tmpfs'
import { realFsOps, type FsOps } from '../workspace-fs'

const reason = 'needs permission to mount a tmpfs (root) inside the workspace'

describe.skipIf(!canMountTmpfs())(`a batched rewind across a mount inside the workspace — skipped unless it ${reason}`, () => {
  let ws: AgentWorkspace | undefined
  let mounted: string | null = null
  afterEach(() => {
    if (mounted) unmountTmpfs(mounted)
    mounted = null
    ws?.dispose()
    ws = undefined
  })

  it('fsyncs the files on the other file system itself: flushing the root’s does not cover them', async () => {
    ws = agentWorkspace({ 'src/a.txt': 'a before\n', 'src/b.txt': 'b before\n' })
    mkdirSync(join(ws.root, 'cache'))
    mounted = mountTmpfs(1024, join(ws.root, 'cache'))
    if (!mounted) throw new Error('mount failed')
    ws.user.write('cache/c.txt', 'c before\n')
    ws.agent.turn()
    ws.agent.write('src/a.txt', 'a after\n')
    ws.agent.write('src/b.txt', 'b after\n')
    ws.agent.write('cache/c.txt', 'c after\n')
    ws.agent.write('cache/deep/d.txt', 'created in the mount\n')

    const durable = new Map<string, boolean | undefined>()
    const ops: FsOps = {
      ...realFsOps,
      writeBlob: (blobs, hash, path, mode, options) => {
        durable.set(path.toString().slice(ws!.root.length + 1).replace(/\/\.retrace-tmp-\w+$/, ''), options?.durable ?? true) // fsynced unless told otherwise
        return realFsOps.writeBlob(blobs, hash, path, mode, options)
      }
    }
    await ws.rewindsUnder({ ops, batchFrom: 1 }).applyTurn(ws.writer.id, 1)
    expect(ws.text('src/a.txt')).toBe('a before\n')
    expect(ws.text('src/b.txt')).toBe('b before\n')
    expect(ws.text('cache/c.txt')).toBe('c before\n')
    expect(ws.text('cache/deep/d.txt')).toBeNull()
    // On the root's file system: replaced on the lanes, made durable by their flushes (not
    // written through FsOps at all). In the mount: fsynced one by one on the main thread.
    expect(Object.fromEntries(durable)).toEqual({ cache: true })
  })
})
