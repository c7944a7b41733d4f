import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { discoverGeminiFiles, discoverGeminiWorkspace, geminiRoots, projectHash } from './discover'

let dirs: string[] = []
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  dirs = []
})
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-gemini-discover-'))
  dirs.push(dir)
  return dir
}
function touch(path: string, text = '{"sessionId":"x","projectHash":"y"}\n'): void {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, text)
}

describe('Gemini CLI discovery', () => {
  it('looks in $GEMINI_CLI_HOME/.gemini, else the home folder', () => {
    expect(geminiRoots({ GEMINI_CLI_HOME: '/g', HOME: '/h' })).toEqual([join('/g', '.gemini')])
    expect(geminiRoots({ HOME: '/h' })).toEqual([join('/h', '.gemini')])
    expect(geminiRoots({ USERPROFILE: 'C:/Users/me' })).toEqual([join('C:/Users/me', '.gemini')])
  })

  it('finds a workspace by its SHA-256 folder, its projects.json slug and a .project_root marker, and no other', async () => {
    const root = join(temp(), '.gemini')
    const workspace = temp()
    const other = temp()
    const tmp = join(root, 'tmp')
    touch(join(tmp, projectHash(workspace), 'chats', 'session-2025-12-01T21-45-aaaaaaaa.json'))
    touch(join(tmp, 'my-app', 'chats', 'session-2026-08-20T10-00-bbbbbbbb.jsonl'))
    touch(join(tmp, 'my-app', 'chats', 'bbbbbbbb-full-id', 'sub-agent-1.jsonl'))
    writeFileSync(join(root, 'projects.json'), JSON.stringify({ projects: { [workspace]: 'my-app', [other]: 'other-app' } }))
    touch(join(tmp, 'marked', '.project_root'), `${workspace}\n`)
    touch(join(tmp, 'marked', 'chats', 'session-2026-08-21T09-00-cccccccc.jsonl'))
    touch(join(tmp, 'other-app', 'chats', 'session-2026-08-21T09-00-dddddddd.jsonl'))
    // A resumed legacy file was copied into a .jsonl of the same name: one session, the .json's, read from the .jsonl.
    touch(join(tmp, 'my-app', 'chats', 'session-2026-08-19T08-00-eeeeeeee.json'))
    touch(join(tmp, 'my-app', 'chats', 'session-2026-08-19T08-00-eeeeeeee.jsonl'))
    // Not sessions: a backup of an unreadable file. The prompt log is read (for sessions without a recording).
    touch(join(tmp, 'my-app', 'chats', 'session-2026-08-19T08-00-eeeeeeee.jsonl.unreadable-1'))
    touch(join(tmp, 'my-app', 'logs.json'), '[]')

    const found = await discoverGeminiWorkspace(workspace, [root])
    const names = found.map((file) => file.path.slice(tmp.length + 1)).sort()
    expect(names).toEqual([
      join(projectHash(workspace), 'chats', 'session-2025-12-01T21-45-aaaaaaaa.json'),
      join('marked', 'chats', 'session-2026-08-21T09-00-cccccccc.jsonl'),
      join('my-app', 'chats', 'bbbbbbbb-full-id', 'sub-agent-1.jsonl'),
      join('my-app', 'chats', 'session-2026-08-19T08-00-eeeeeeee.json'),
      join('my-app', 'chats', 'session-2026-08-20T10-00-bbbbbbbb.jsonl'),
      join('my-app', 'logs.json')
    ])
    expect(found.every((file) => file.cwd === workspace && file.fingerprint)).toBe(true)
    expect(found.find((file) => file.path.endsWith('sub-agent-1.jsonl'))?.parentSessionId).toBe('bbbbbbbb-full-id')
    expect(found.find((file) => file.path.endsWith('aaaaaaaa.json'))?.startedAt).toBe(Date.parse('2025-12-01T21:45:00Z'))
    // The log is read again when a session's recording comes, not when a recording only grows.
    const logPrint = (files: typeof found) => files.find((file) => file.path.endsWith('logs.json'))?.fingerprint
    const first = logPrint(found)
    touch(join(tmp, 'my-app', 'chats', 'session-2026-08-20T10-00-bbbbbbbb.jsonl'), '{"sessionId":"x","projectHash":"y"}\n{"id":"m"}\n')
    expect(logPrint(await discoverGeminiWorkspace(workspace, [root]))).toBe(first)
    touch(join(tmp, 'my-app', 'chats', 'session-2026-08-22T10-00-ffffffff.jsonl'))
    expect(logPrint(await discoverGeminiWorkspace(workspace, [root]))).not.toBe(first)
    rmSync(join(tmp, 'my-app', 'chats', 'session-2026-08-22T10-00-ffffffff.jsonl'))

    // import --all: every project; the cwd where the folder names it (a hash cannot be reversed).
    const all = await discoverGeminiFiles([root])
    expect(all).toHaveLength(7)
    expect(all.filter((file) => file.cwd === null).map((file) => file.path)).toEqual([join(tmp, projectHash(workspace), 'chats', 'session-2025-12-01T21-45-aaaaaaaa.json')])
    expect(all.filter((file) => file.cwd === other)).toHaveLength(1)
  })
})
