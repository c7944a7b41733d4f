import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { claudeRoots, discoverClaudeWorkspace } from './discover'
import { encodeProjectFolder } from './project-folder'

const SPOTTER_CWD = '/home/USER/projects/spotter-worktrees/spotter-4te'
let root = ''
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true })
  root = ''
})

describe('finding the Claude Code sessions of a workspace', () => {
  it('uses CLAUDE_CONFIG_DIR, else ~/.claude', () => {
    expect(claudeRoots({ CLAUDE_CONFIG_DIR: '/x/claude', HOME: '/home/me' })).toEqual(['/x/claude'])
    expect(claudeRoots({ HOME: '/home/me' })).toEqual(['/home/me/.claude'])
  })

  it('finds a moved project by the cwd recorded in its files, with both sub-agent layouts', async () => {
    root = mkdtempSync(join(tmpdir(), 'retrace-discover-'))
    // Filed under the folder's old name: only the cwd inside the lines ties it to the workspace.
    cpSync(join(FIXTURES, 'claude-code/spotter/projects-dir'), join(root, 'projects', '-somewhere-else-entirely'), { recursive: true })
    cpSync(join(FIXTURES, 'claude-code/codemie/-tmp-private'), join(root, 'projects', '-tmp-private'), { recursive: true })
    const files = await discoverClaudeWorkspace(SPOTTER_CWD, [root])
    expect(files.map((f) => [f.role, f.sessionId]).sort()).toEqual([
      ['main', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'],
      ['sub-agent', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04/agent-aac57f5'],
      ['sub-agent', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04/agent-acompact-946d2b']
    ])
    const main = files.find((f) => f.role === 'main')
    expect(files.filter((f) => f.role === 'sub-agent').map((f) => f.parentPath)).toEqual([main?.path, main?.path])
    // The older layout: agent-*.jsonl beside the session, its parent named inside its lines.
    const codemie = await discoverClaudeWorkspace('/tmp/private', [root])
    expect(codemie.filter((f) => f.role === 'sub-agent').map((f) => f.parentSessionId)).toEqual(['4c2ddfdc-b619-4525-8d03-1950fb1b0257', '4c2ddfdc-b619-4525-8d03-1950fb1b0257'])
  })

  it('falls back to the encoded folder name for a file that records no cwd', async () => {
    root = mkdtempSync(join(tmpdir(), 'retrace-discover-'))
    const folder = join(root, 'projects', encodeProjectFolder('/work/my.app'))
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, '11111111-2222-3333-4444-555555555555.jsonl'), '{"type":"summary","summary":"Only a summary so far","leafUuid":"x"}\n')
    expect(encodeProjectFolder('/work/my.app')).toBe('-work-my-app')
    expect((await discoverClaudeWorkspace('/work/my.app', [root])).map((f) => f.sessionId)).toEqual(['11111111-2222-3333-4444-555555555555'])
    expect(await discoverClaudeWorkspace('/work/other', [root])).toEqual([])
  })
})
