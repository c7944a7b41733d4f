import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { discoverClineFiles, discoverClineWorkspace } from './discover'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function storage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-cline-discover-'))
  dirs.push(dir)
  return dir
}

/** A task whose first user message names `cwd` as Cline writes it (the text JSON-escaped). */
function task(root: string, id: string, cwdLine: string | null): void {
  const dir = join(root, 'tasks', id)
  mkdirSync(dir, { recursive: true })
  const env = cwdLine === null ? '<environment_details>\n# Current Time\nnow\n</environment_details>' : `<environment_details>\n# Current Working Directory (${cwdLine}) Files\na.ts\n</environment_details>`
  writeFileSync(join(dir, 'api_conversation_history.json'), JSON.stringify([{ role: 'user', content: [{ type: 'text', text: '<task>\nhi\n</task>' }, { type: 'text', text: env }] }]))
}

describe('finding Cline tasks', () => {
  it('matches tasks to a workspace by the cwd their environment details name, else by Cline\'s task index', async () => {
    const root = storage()
    task(root, '1000', '/work/app')
    task(root, '2000', '/work/app/packages/ui')
    task(root, '3000', '/work/other')
    task(root, '4000', null)
    task(root, '5000', 'Primary: app') // a multi-root workspace: no path
    mkdirSync(join(root, 'tasks', 'empty-folder'))
    mkdirSync(join(root, 'state'))
    writeFileSync(join(root, 'state', 'taskHistory.json'), JSON.stringify([{ id: '4000', ts: 1, task: 'x', cwdOnTaskInitialization: '/work/app' }, { id: '5000', ts: 2, task: 'y' }]))

    const all = await discoverClineFiles([root])
    expect(all.map((file) => [file.sessionId, file.cwd])).toEqual([
      ['1000', '/work/app'],
      ['2000', '/work/app/packages/ui'],
      ['3000', '/work/other'],
      ['4000', '/work/app'],
      ['5000', null]
    ])
    const app = await discoverClineWorkspace('/work/app', [root])
    expect(app.map((file) => file.sessionId)).toEqual(['1000', '2000', '4000'])
    expect(app.every((file) => file.fingerprint?.startsWith('api_conversation_history.json:'))).toBe(true)
    // The storage itself opened as a workspace: every task, whatever folder it ran in.
    expect((await discoverClineWorkspace(root, [root])).map((file) => [file.sessionId, file.cwd])).toEqual(['1000', '2000', '3000', '4000', '5000'].map((id) => [id, root]))
  })

  it('finds Cline 4 sessions by the cwd of their manifest', async () => {
    const root = storage()
    const dir = join(root, 'sessions', 's_1')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 's_1.json'), JSON.stringify({ version: 1, session_id: 's_1', cwd: '/work/app' }))
    writeFileSync(join(dir, 's_1.messages.json'), JSON.stringify({ version: 1, messages: [] }))
    mkdirSync(join(root, 'sessions', 'no-messages'))
    expect((await discoverClineWorkspace('/work/app', [root])).map((file) => [file.sessionId, file.path])).toEqual([['s_1', dir]])
    expect(await discoverClineWorkspace('/work/other', [root])).toEqual([])
  })
})
