import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { aiderRoots, discoverAiderFiles, discoverAiderWorkspace, inputHistoryOf } from './discover'

let dirs: string[] = []
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  dirs = []
})
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-aider-discover-'))
  dirs.push(dir)
  return dir
}
function touch(path: string, text = '# aider chat started at 2024-08-05 19:33:32\n'): void {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, text)
}

describe('Aider discovery', () => {
  it('takes the files named by the home folder\'s .aider.conf.yml and AIDER_CHAT_HISTORY_FILE, relative ones as written', () => {
    const home = temp()
    expect(aiderRoots({ HOME: home })).toEqual([])
    touch(join(home, '.aider.conf.yml'), "model: sonnet\nchat-history-file: 'notes/aider.md' # mine\n")
    expect(aiderRoots({ HOME: home, AIDER_CHAT_HISTORY_FILE: 'logs/chat.md' })).toEqual(['logs/chat.md', 'notes/aider.md'])
    touch(join(home, '.aider.conf.yml'), `chat-history-file: ${join(home, 'all.md')}\n`)
    expect(aiderRoots({ USERPROFILE: home })).toEqual([join(home, 'all.md')])
  })

  it('resolves relative names against the workspace, and leaves them out of import --all', async () => {
    const workspace = temp()
    touch(join(workspace, 'notes', 'aider.md'))
    touch(join(workspace, 'logs', 'chat.md'))
    touch(join(workspace, 'elsewhere.md'))
    const found = await discoverAiderWorkspace(workspace, ['logs/chat.md', 'notes/aider.md', 'missing.md'])
    expect(found.map((file) => file.path).sort()).toEqual([join(workspace, 'logs', 'chat.md'), join(workspace, 'notes', 'aider.md')])
    expect(found.every((file) => file.cwd === workspace)).toBe(true)
    expect(await discoverAiderFiles(['logs/chat.md', join(workspace, 'elsewhere.md')])).toMatchObject([{ path: join(workspace, 'elsewhere.md'), cwd: workspace }])
  })

  it('finds the input history beside the chat history, else at the top of the workspace; its changes change the fingerprint', async () => {
    const workspace = temp()
    touch(join(workspace, 'notes', 'aider.md'))
    expect(inputHistoryOf(join(workspace, 'notes', 'aider.md'), workspace)).toBeNull()
    const [before] = await discoverAiderWorkspace(workspace, ['notes/aider.md'])
    touch(join(workspace, '.aider.input.history'), '\n# 2024-08-05 19:33:45.123456\n+hi\n')
    expect(inputHistoryOf(join(workspace, 'notes', 'aider.md'), workspace)).toBe(join(workspace, '.aider.input.history'))
    const [after] = await discoverAiderWorkspace(workspace, ['notes/aider.md'])
    expect(after?.fingerprint).not.toBe(before?.fingerprint)
    touch(join(workspace, 'notes', '.aider.input.history'), '')
    expect(inputHistoryOf(join(workspace, 'notes', 'aider.md'), workspace)).toBe(join(workspace, 'notes', '.aider.input.history'))
  })
})
