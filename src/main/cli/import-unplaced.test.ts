import { cpSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../sources/testing/claude-home'
import { importTestbed } from '../sources/testing/import-testbed'
import { projectHash } from '../sources/gemini-cli/discover'
import { runCli } from './main'

const REAL = join(FIXTURES, 'gemini-cli', 'codemie', 'gemini')
const CHATS = ['session-2026-01-16T11-01-file-ops-37b7abef.json', 'session-2025-12-01T21-45-5b959dae.json']

describe('retrace import --all says what it could not place', () => {
  const { tempDir } = importTestbed('retrace-unplaced-')

  it('counts the Gemini CLI chats whose project folder is known only by its hash, and says how to import them', async () => {
    const workspace = tempDir()
    const home = tempDir()
    // Older Gemini CLI names a project's folder by the SHA-256 of its path, which cannot be reversed.
    const project = join(home, '.gemini', 'tmp', projectHash(workspace))
    mkdirSync(join(project, 'chats'), { recursive: true })
    for (const chat of CHATS) cpSync(join(REAL, chat), join(project, 'chats', chat), { preserveTimestamps: true })
    cpSync(join(REAL, 'logs.json'), join(project, 'logs.json'))
    const env = { HOME: '/nonexistent', GEMINI_CLI_HOME: home, CLAUDE_CONFIG_DIR: '/nonexistent', CODEX_HOME: '/nonexistent' }
    const dataDir = join(tempDir(), 'data')
    const out: string[] = []
    const io = { out: (text: string) => out.push(text), err: () => undefined }

    expect(await runCli(['import', '--all', '--source', 'gemini-cli', '--data-dir', dataDir], io, env)).toBe(0)
    expect(out).toContain('2 Gemini CLI chats: open their project folder to import them (Gemini CLI recorded only a hash of its path).')
    out.length = 0
    expect(await runCli(['import', '--all', '--source', 'gemini-cli', '--json', '--data-dir', dataDir], io, env)).toBe(0)
    expect((JSON.parse(out.join('\n')) as { unplaced: unknown }).unplaced).toEqual([{ source: 'gemini-cli', sessions: 2, files: CHATS.map((chat) => join(project, 'chats', chat)).sort() }])

    // As it says: the project folder, opened (or named), takes them.
    out.length = 0
    expect(await runCli(['import', workspace, '--source', 'gemini-cli', '--data-dir', dataDir], io, env)).toBe(0)
    expect(out.join('\n')).toContain('2 new sessions')
  })
})
