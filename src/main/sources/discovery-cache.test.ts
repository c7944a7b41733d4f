import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore, type Store } from '../store/store'
import { DiscoveryCache } from './discovery-cache'
import { discoverClaudeFiles } from './claude-code/discover'
import { readHeadObjects } from './files'

describe('what discovery read from a file, remembered while the file is unchanged', () => {
  let dir: string
  let store: Store
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'retrace-discovery-cache-'))
    store = openStore(join(dir, 'data'))
  })
  afterEach(() => {
    store.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("keeps a Claude Code head's facts, not its lines: discovery with a cache leaves the head cache alone", async () => {
    const session = '0a0b0c0d-0000-4000-8000-000000000001'
    const folder = join(dir, 'claude', 'projects', '-a')
    mkdirSync(folder, { recursive: true })
    const path = join(folder, `${session}.jsonl`)
    const line = (cwd: string) => `${JSON.stringify({ type: 'user', cwd, timestamp: '2026-01-01T00:00:00Z', sessionId: session })}\n`
    writeFileSync(path, line('/a'))
    utimesSync(path, 1_700_000_000, 1_700_000_000)
    const [found] = await discoverClaudeFiles([join(dir, 'claude')], undefined, new DiscoveryCache(store.discoveredFiles))
    expect(found?.cwd).toBe('/a')
    // The same size and time, other bytes: a head cached by that discovery would still say /a.
    writeFileSync(path, line('/b'))
    utimesSync(path, 1_700_000_000, 1_700_000_000)
    const sameStop = { key: 'conversation-and-fork', enough: () => true, worthParsing: () => true }
    expect((await readHeadObjects(path, 50, sameStop)).map((object) => object.cwd)).toEqual(['/b'])
  })

  it('reads a file once across imports, again once it grows, and not at all when it is gone', async () => {
    const path = join(dir, 'session.jsonl')
    writeFileSync(path, '{"cwd":"/a"}\n')
    let reads = 0
    const read = () => {
      reads += 1
      return Promise.resolve({ cwd: '/a', reads })
    }
    const first = new DiscoveryCache(store.discoveredFiles)
    expect(await first.facts(path, read)).toEqual({ cwd: '/a', reads: 1 })
    expect(await first.facts(path, read)).toEqual({ cwd: '/a', reads: 1 })
    first.save()

    // A later import, in another process: from the store.
    const second = new DiscoveryCache(store.discoveredFiles)
    expect(await second.facts(path, read)).toEqual({ cwd: '/a', reads: 1 })
    appendFileSync(path, '{"more":1}\n')
    expect(await second.facts(path, read)).toEqual({ cwd: '/a', reads: 2 })
    second.save()
    expect(await new DiscoveryCache(store.discoveredFiles).facts(path, read)).toEqual({ cwd: '/a', reads: 2 })

    rmSync(path)
    await expect(second.facts(path, () => Promise.reject(new Error('ENOENT')))).rejects.toThrow('ENOENT')
  })

  it('reads a file once when two discoveries ask for it at the same time', async () => {
    const path = join(dir, 'session.jsonl')
    writeFileSync(path, '{"cwd":"/a"}\n')
    let reads = 0
    const read = async () => {
      reads += 1
      await new Promise((resolve) => setTimeout(resolve, 20))
      return { cwd: '/a' }
    }
    const cache = new DiscoveryCache(store.discoveredFiles)
    expect(await Promise.all([cache.facts(path, read), cache.facts(path, read)])).toEqual([{ cwd: '/a' }, { cwd: '/a' }])
    expect(reads).toBe(1)
  })

  it('reads a file again when its stored facts are of a shape the reader no longer accepts', async () => {
    const path = join(dir, 'rollout.jsonl')
    writeFileSync(path, '{"cwd":"/a"}\n')
    const old = new DiscoveryCache(store.discoveredFiles)
    await old.facts(path, () => Promise.resolve({ cwd: '/a' }))
    old.save()
    // A newer reader records more (here `v: 2`): facts stored by the older one are read again, once.
    let reads = 0
    const read = () => {
      reads += 1
      return Promise.resolve({ v: 2, cwd: '/a' })
    }
    const accept = (facts: { v?: number }) => facts.v === 2
    const newer = new DiscoveryCache(store.discoveredFiles)
    expect(await newer.facts(path, read, accept)).toEqual({ v: 2, cwd: '/a' })
    newer.save()
    expect(await new DiscoveryCache(store.discoveredFiles).facts(path, read, accept)).toEqual({ v: 2, cwd: '/a' })
    expect(reads).toBe(1)
  })
})
