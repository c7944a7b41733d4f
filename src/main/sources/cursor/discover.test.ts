import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readForeignDb } from '../foreign-db/read-foreign-db'
import { chatsHash, discoverCliAll, discoverCliWorkspace, projectSlug } from './cli-discover'
import { cursorRoots, discoverCursorFiles, discoverCursorWorkspace, workspaceFolder } from './discover'
import { buildCliHome } from './testing/cli-home'

let dir = ''
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'retrace-cursor-discover-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe("where Cursor's stores are", () => {
  it("is VS Code's user-data path with Cursor's name, per platform, and $VSCODE_APPDATA first", () => {
    expect(cursorRoots({ HOME: '/home/u' }, 'linux')).toEqual([resolve('/home/u/.config/Cursor/User')])
    expect(cursorRoots({ HOME: '/home/u', XDG_CONFIG_HOME: '/xdg' }, 'linux')).toEqual([resolve('/xdg/Cursor/User')])
    expect(cursorRoots({ HOME: '/Users/u' }, 'darwin')).toEqual([resolve('/Users/u/Library/Application Support/Cursor/User')])
    expect(cursorRoots({ HOME: '/h', APPDATA: '/appdata' }, 'win32')).toEqual([resolve('/appdata/Cursor/User')])
    expect(cursorRoots({ HOME: '/h', VSCODE_APPDATA: '/portable' }, 'darwin')).toEqual([resolve('/portable/Cursor/User')])
  })

  it('reads the local folder a workspace.json names: a folder, the folder of a .code-workspace, never a remote one', () => {
    const write = (value: unknown) => {
      const path = join(dir, 'workspace.json')
      writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value))
      return workspaceFolder(path)
    }
    expect(write({ folder: pathToFileURL('/work/app').href })).toBe(resolve('/work/app'))
    expect(write({ workspace: pathToFileURL('/work/mono/mono.code-workspace').href })).toBe(resolve('/work/mono'))
    expect(write({ folder: 'vscode-remote://ssh-remote%2Bbox/home/u/app' })).toBeNull()
    expect(write('{"folder": ')).toBeNull()
  })

  it('finds the workspace stores whose folder is the workspace, and every one for --all', async () => {
    const user = join(dir, 'Cursor', 'User')
    const make = (hash: string, folder: string, withDb = true) => {
      mkdirSync(join(user, 'workspaceStorage', hash), { recursive: true })
      writeFileSync(join(user, 'workspaceStorage', hash, 'workspace.json'), JSON.stringify({ folder: pathToFileURL(folder).href }))
      if (withDb) writeFileSync(join(user, 'workspaceStorage', hash, 'state.vscdb'), '')
    }
    make('aaa', '/work/app')
    make('bbb', '/work/other')
    make('ccc', '/work/app', false)
    const found = await discoverCursorWorkspace('/work/app', [user])
    expect(found.map((file) => [file.source, file.sessionId, file.cwd])).toEqual([['cursor', 'aaa', resolve('/work/app')]])
    expect(found[0]?.fingerprint).toMatch(/^0@[\d.]+:-:-:-$/)
    expect((await discoverCursorFiles([user])).map((file) => file.sessionId)).toEqual(['aaa', 'bbb'])
  })
})

describe('reading a key-value table by key prefix (foreign-db `prefixes`)', () => {
  it('returns exactly the rows under the prefixes, none for an empty list', async () => {
    const path = join(dir, 'state.vscdb')
    const db = new Database(path)
    db.exec('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)')
    const keys = ['bubbleId:a:1', 'bubbleId:a:2', 'bubbleId:ab:1', 'bubbleId:b:1', 'composerData:a', 'composerData:ab', 'bubbleId:a;x']
    for (const key of keys) db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)').run(key, key)
    db.close()
    const read = async (prefixes: string[]) => {
      const result = await readForeignDb(path, { cursorDiskKV: { columns: ['key'], prefixes: { key: prefixes }, orderBy: ['key'] } })
      return result.ok && result.tables.cursorDiskKV?.state === 'read' ? result.tables.cursorDiskKV.rows.map((row) => row.key) : result
    }
    expect(await read(['bubbleId:a:', 'composerData:a'])).toEqual(['bubbleId:a:1', 'bubbleId:a:2', 'composerData:a', 'composerData:ab'])
    expect(await read([])).toEqual([])
  })
})

describe("where Cursor's agent keeps a workspace's transcripts and chats", () => {
  it('names the project folder by a slug of the path, and the chats folder by its MD5', () => {
    expect(projectSlug('/Users/alexm/Repository/Codex-History')).toBe('Users-alexm-Repository-Codex-History')
    expect(projectSlug('/home/u/my.app v2/')).toBe('home-u-my-app-v2')
    expect(projectSlug('C:\\Programm')).toBe('c-Programm')
    expect(chatsHash('/tmp/p')).toBe('0cb10df74bab9f4ac4d641e5f75977b1')
  })

  it('finds a copied ~/.cursor added as a source under another name', () => {
    const copy = join(dir, 'cursor-backup')
    const workspace = join(dir, 'work')
    const transcripts = join(copy, 'projects', projectSlug(workspace), 'agent-transcripts')
    mkdirSync(transcripts, { recursive: true })
    writeFileSync(join(transcripts, 'a1.jsonl'), '{"role":"user","message":{"content":"hi"}}\n')
    expect(discoverCliWorkspace(workspace, [copy]).map((file) => [file.sessionId, file.cwd])).toEqual([['a1', resolve(workspace)]])
    expect(discoverCliWorkspace(join(dir, 'elsewhere'), [copy])).toEqual([])
    // A folder named with doubled dashes (`/.` kept as two) is the same project.
    const dotted = join(dir, '.hidden')
    const doubled = join(copy, 'projects', `${projectSlug(dir)}--hidden`, 'agent-transcripts')
    mkdirSync(doubled, { recursive: true })
    writeFileSync(join(doubled, 'b2.jsonl'), '{"role":"user","message":{"content":"hi"}}\n')
    expect(discoverCliWorkspace(dotted, [copy]).map((file) => file.sessionId)).toEqual(['b2'])
  })
})

describe('import --all in ~/.cursor', () => {
  it("places a folder's chats and transcripts by the cwd its chats' meta.json records", () => {
    const workspace = join(dir, 'project')
    const home = join(dir, 'home')
    buildCliHome(home, workspace)
    const found = discoverCliAll([join(home, '.cursor')])
    expect(found.map((file) => file.cwd)).toEqual(found.map(() => resolve(workspace)))
    expect(found.map((file) => file.path.split(/[\\/]/).at(-1)).sort()).toEqual([
      '0b8e4f2d-6a1c-4d3e-b5f7-9a2c8e1d4b60.jsonl',
      '4a7e2c19-8b3d-4f60-9e1a-5c2d7b8f3e04.txt',
      '7d1c5e2a-4b8f-4e3a-9c6d-2f0e8b1a5c47.jsonl',
      'store.db'
    ])
  })
})
