import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { readTaskFolder } from './read-task'
import { rooShadowGitDir } from './shadow-git'

const PARENT = '019c8a10-5e2b-7a31-9f00-3c1d2e4f5a61'
const CHILD = '019c8a12-77d0-7b42-8e11-4d2e3f506b72'
const made: string[] = []

/** A copy of the writer-built Roo tasks, so a test can take away what it wants the link found without. */
function storage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-roo-parent-'))
  made.push(dir)
  cpSync(join(FIXTURES, 'cline', 'roo-writer', 'rooveterinaryinc.roo-cline'), dir, { recursive: true })
  return dir
}

function parentOf(dir: string) {
  const [session] = readTaskFolder(join(dir, 'tasks', CHILD)).sessions
  const meta = session?.records[0]
  return meta?.kind === 'session-meta' ? meta.parent : 'no meta'
}

function edit(path: string, change: (text: string) => string): void {
  writeFileSync(path, change(readFileSync(path, 'utf8')))
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('a Roo Code sub-task\'s link to its parent', () => {
  it('names the parent\'s new_task call whose result names the child', () => {
    expect(parentOf(storage())).toEqual({ sessionId: PARENT, kind: 'sub-agent', toolCallId: 'toolu_05RooNewTask' })
  })

  it('finds the call by the child\'s first prompt, else by its place in childIds', () => {
    const dir = storage()
    const history = join(dir, 'tasks', PARENT, 'api_conversation_history.json')
    edit(history, (text) => text.replace(`Subtask ${CHILD} completed.`, 'Subtask completed.'))
    expect(parentOf(dir)).toMatchObject({ toolCallId: 'toolu_05RooNewTask' })
    edit(history, (text) => text.replace('"message": "Write docs/README.md', '"message": "Write the docs/README.md'))
    expect(parentOf(dir)).toMatchObject({ toolCallId: 'toolu_05RooNewTask' })
    edit(join(dir, 'tasks', PARENT, 'history_item.json'), (text) => text.replace(`"childIds": ["${CHILD}"]`, '"childIds": []'))
    expect(parentOf(dir)).toEqual({ sessionId: PARENT, kind: 'sub-agent' })
  })

  it('gives no parent to a task without history_item.json, or one that names itself', () => {
    const dir = storage()
    edit(join(dir, 'tasks', CHILD, 'history_item.json'), (text) => text.replace(`"parentTaskId": "${PARENT}"`, `"parentTaskId": "${CHILD}"`))
    expect(parentOf(dir)).toBeUndefined()
    rmSync(join(dir, 'tasks', CHILD, 'history_item.json'))
    expect(parentOf(dir)).toBeUndefined()
  })
})

describe('where Roo Code keeps a task\'s checkpoints', () => {
  it('prefers the task\'s own repository, else the workspace repository of Roo 3.7–3.11', () => {
    const dir = storage()
    const task = join(dir, 'tasks', PARENT)
    expect(rooShadowGitDir(task, dir, '/home/dev/roo-app')).toBeNull()
    // sha256('/home/dev/roo-app') cut to 8 hex digits, as ShadowCheckpointService.hashWorkspaceDir.
    const workspaceRepo = join(dir, 'checkpoints', 'c39973b1', '.git')
    mkdirSync(workspaceRepo, { recursive: true })
    expect(rooShadowGitDir(task, dir, '/home/dev/roo-app')).toBe(workspaceRepo)
    mkdirSync(join(task, 'checkpoints', '.git'), { recursive: true })
    expect(rooShadowGitDir(task, dir, '/home/dev/roo-app')).toBe(join(task, 'checkpoints', '.git'))
  })
})
