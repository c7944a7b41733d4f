import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { discoverOpenCodeFiles, discoverOpenCodeWorkspace, openCodeRoots } from './discover'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function dataFolder(layout: string, name = 'opencode.db'): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'retrace-opencode-discover-')), 'opencode')
  dirs.push(dir)
  if (layout === 'db-v1.2') {
    mkdirSync(dir)
    cpSync(join(FIXTURES, 'opencode', layout, 'opencode.db'), join(dir, name))
  } else cpSync(join(FIXTURES, 'opencode', layout), dir, { recursive: true })
  return dir
}

describe('where OpenCode keeps its data', () => {
  it('$XDG_DATA_HOME/opencode, else ~/.local/share/opencode; the folder of an absolute $OPENCODE_DB too', () => {
    // The Kilo CLI's data folder comes last (kilo.test.ts).
    const kilo = '/home/ada/.local/share/kilo'
    expect(openCodeRoots({ HOME: '/home/ada' })).toEqual(['/home/ada/.local/share/opencode', kilo])
    expect(openCodeRoots({ HOME: '/home/ada', XDG_DATA_HOME: '/data/xdg' })).toEqual(['/data/xdg/opencode', '/data/xdg/kilo'])
    expect(openCodeRoots({ HOME: '/home/ada', OPENCODE_DB: '/srv/oc/custom.db' })).toEqual(['/home/ada/.local/share/opencode', '/srv/oc', kilo])
    // A relative $OPENCODE_DB is inside the data folder already.
    expect(openCodeRoots({ HOME: '/home/ada', OPENCODE_DB: 'other.db' })).toEqual(['/home/ada/.local/share/opencode', kilo])
  })

  it('import --all: each store once per directory its sessions ran in', async () => {
    for (const layout of ['storage-v0.15', 'db-v1.2']) {
      const dir = dataFolder(layout)
      const files = await discoverOpenCodeFiles([dir])
      expect(files.map((file) => [file.path.slice(dir.length), file.cwd]).sort()).toEqual(
        [
          [layout === 'db-v1.2' ? '/opencode.db' : '/storage', '/home/dev/notes'],
          [layout === 'db-v1.2' ? '/opencode.db' : '/storage', '/home/dev/weatherly']
        ].sort()
      )
    }
  })

  it('a channel database (opencode-<channel>.db) counts; another database and an empty folder do not', async () => {
    const dir = dataFolder('db-v1.2', 'opencode-dev.db')
    writeFileSync(join(dir, 'notes.db'), '')
    expect((await discoverOpenCodeWorkspace(dir, [])).map((file) => file.path)).toEqual([join(dir, 'opencode-dev.db')])
    const empty = mkdtempSync(join(tmpdir(), 'retrace-opencode-empty-'))
    dirs.push(empty)
    expect(await discoverOpenCodeWorkspace(empty, [dir])).toEqual([])
    // A project's own storage/session/ folder is not OpenCode's without its session files.
    mkdirSync(join(empty, 'storage', 'session', 'cache'), { recursive: true })
    writeFileSync(join(empty, 'storage', 'session', 'cache', 'user.json'), '{}')
    expect(await discoverOpenCodeWorkspace(empty, [])).toEqual([])
  })

  it('a workspace gets a store only when one of its sessions ran there', async () => {
    const dir = dataFolder('storage-v0.15')
    expect(await discoverOpenCodeWorkspace('/home/dev/elsewhere', [dir])).toEqual([])
    expect((await discoverOpenCodeWorkspace('/home/dev/weatherly', [dir])).map((file) => [file.path, file.cwd])).toEqual([[join(dir, 'storage'), '/home/dev/weatherly']])
  })
})
