import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createTwoFilesPatch } from 'diff'
import { describe, expect, it, onTestFinished } from 'vitest'
import { replaceTextInWal } from '../foreign-db/testing/rewrite-text'
import { FIXTURES } from '../testing/claude-home'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed } from '../testing/import-testbed'

const WORKTREE = '/home/dev/weatherly'
// What the fixture's tools wrote (fixtures/opencode/make-fixtures.mjs).
const HTTP_BEFORE = 'export async function get(url: string): Promise<Response> {\n  return fetch(url)\n}\n'
const HTTP_AFTER =
  'export async function get(url: string, retries = 3): Promise<Response> {\n  for (let attempt = 0; ; attempt++) {\n    const response = await fetch(url)\n    if (response.ok || attempt >= retries) return response\n    await new Promise((resolve) => setTimeout(resolve, 2 ** attempt * 100))\n  }\n}\n'
const CHANGELOG = '# Changelog\n\n## 0.3.0\n\n- Retry GET requests with exponential backoff.\n'
const PACKAGE_BEFORE = '{\n  "name": "weatherly",\n  "version": "0.2.0"\n}\n'
const NOTES_BEFORE = '# Notes\n\n- Weather data from open-meteo.\n'
const NOTES_AFTER = `${NOTES_BEFORE}- Tested on Node 20\n`

/** The columns of opencode.db that hold the project's path. */
const DB_TEXT = { project: ['worktree'], session: ['directory'], message: ['data'], part: ['data'] } as const

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

describe('rewinding an OpenCode session’s turns', () => {
  const { tempDir, runtime } = importTestbed('retrace-opencode-rewind-')

  for (const layout of ['storage-v0.15', 'db-v1.2']) {
    it(`${layout}: edit and write results make turns rewindable, and the rewind undoes`, async () => {
      const workspace = tempDir()
      const data = tempDir()
      const dir = join(data, 'opencode')
      // Each layout with its snapshot repository (flat in 0.15, one folder per worktree in current versions).
      cpSync(join(FIXTURES, 'opencode', layout), dir, { recursive: true })
      // The database layout gets the storage folder beside it too, as OpenCode leaves it after migrating.
      if (layout === 'db-v1.2') cpSync(join(FIXTURES, 'opencode', 'storage-v0.15', 'storage'), join(dir, 'storage'), { recursive: true })
      // The JSON files only: the snapshot repository's objects are compressed, and hold no path.
      for (const file of filesUnder(join(dir, 'storage'))) writeFileSync(file, readFileSync(file, 'utf8').replaceAll(WORKTREE, workspace))
      // In the database the paths are rewritten in its WAL only, kept open until the end, so the
      // import must read the WAL to match the workspace at all.
      const wal = layout === 'db-v1.2' ? replaceTextInWal(join(dir, 'opencode.db'), DB_TEXT, WORKTREE, workspace) : null
      onTestFinished(() => wal?.close())
      // What OpenCode left: turns 1-3 applied, turn 4 undone by /undo (package.json restored).
      mkdirSync(join(workspace, 'src'))
      writeFileSync(join(workspace, 'src', 'http.ts'), HTTP_AFTER)
      writeFileSync(join(workspace, 'CHANGELOG.md'), CHANGELOG)
      writeFileSync(join(workspace, 'package.json'), PACKAGE_BEFORE)
      writeFileSync(join(workspace, 'NOTES.md'), NOTES_AFTER)
      const before = folderListing(dir)
      const call = contractCaller(runtime({}, { env: { XDG_DATA_HOME: data } }))
      const opened = await call('workspaces.open', { path: workspace })
      const report = await call('imports.run', { workspaceId: opened.id, sources: ['opencode'] })
      // The database layout has the storage folder beside it: read too, its migrated sessions left out.
      expect(report).toMatchObject({ files: layout === 'db-v1.2' ? 2 : 1, sessions: 2, fileChanges: 4, skipped: [] })
      const main = (await call('sessions.list', { workspaceId: opened.id })).items.find((session) => session.kind === 'main')
      if (!main) throw new Error('no main session')
      const sessionId = main.id
      expect((await call('changes.ofTurn', { sessionId, turn: 1 })).items.map((change) => [change.path, change.op])).toEqual([['src/http.ts', 'modify']])
      expect((await call('changes.ofTurn', { sessionId, turn: 3 })).items.map((change) => [change.path, change.op])).toEqual([
        ['CHANGELOG.md', 'create'],
        // Written by `echo … >> NOTES.md`: known only from the step's snapshots.
        ['NOTES.md', 'modify']
      ])

      const plan = await call('rewind.plan', { sessionId, turn: 1 })
      expect(plan.items.map((item) => [item.path, item.action, item.conflict]).sort()).toEqual([
        ['CHANGELOG.md', 'delete', null],
        ['NOTES.md', 'restore', null],
        // Turn 4's edit, which OpenCode's /undo already took back: the file is as before it.
        ['package.json', 'none', null],
        ['src/http.ts', 'restore', null]
      ])
      const rewound = await call('rewind.apply', { sessionId, turn: 1, token: plan.token, choices: [] })
      expect(readFileSync(join(workspace, 'src', 'http.ts'), 'utf8')).toBe(HTTP_BEFORE)
      expect(existsSync(join(workspace, 'CHANGELOG.md'))).toBe(false)
      expect(readFileSync(join(workspace, 'package.json'), 'utf8')).toBe(PACKAGE_BEFORE)
      expect(readFileSync(join(workspace, 'NOTES.md'), 'utf8')).toBe(NOTES_BEFORE)

      const undoPlan = await call('rewind.planUndo', { rewindId: rewound.rewindId })
      await call('rewind.undo', { rewindId: rewound.rewindId, token: undoPlan.token, choices: [] })
      expect(readFileSync(join(workspace, 'src', 'http.ts'), 'utf8')).toBe(HTTP_AFTER)
      expect(readFileSync(join(workspace, 'CHANGELOG.md'), 'utf8')).toBe(CHANGELOG)
      expect(readFileSync(join(workspace, 'NOTES.md'), 'utf8')).toBe(NOTES_AFTER)
      // Nothing written in OpenCode's folder, its snapshot repository included.
      expect(before.filter((line) => line.startsWith('snapshot/')).length).toBeGreaterThan(10)
      expect(folderListing(dir)).toEqual(before)
    })
  }

  it('snapshots OpenCode pruned: the shell command’s change is not known, and the import says why', async () => {
    const workspace = tempDir()
    const data = tempDir()
    const dir = join(data, 'opencode')
    cpSync(join(FIXTURES, 'opencode', 'storage-v0.15', 'storage'), join(dir, 'storage'), { recursive: true })
    for (const file of filesUnder(dir)) writeFileSync(file, readFileSync(file, 'utf8').replaceAll(WORKTREE, workspace))
    const call = contractCaller(runtime({}, { env: { XDG_DATA_HOME: data } }))
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['opencode'] })
    expect(report.fileChanges).toBe(3)
    expect(report.skipped.map((skip) => skip.reason)).toEqual([expect.stringMatching(/^3 step snapshots are not in OpenCode's snapshot repository/) as string])
  })

  it('an edit that kept only its patch (OpenCode ≥ 1.1x) applies to the file as its step\'s snapshot holds it', async () => {
    const workspace = tempDir()
    const data = tempDir()
    const dir = join(data, 'opencode')
    cpSync(join(FIXTURES, 'opencode', 'storage-v0.15'), dir, { recursive: true })
    // The turn-1 edit of src/http.ts as current versions keep it: `filediff: {file, patch, additions,
    // deletions}`, the patch made by jsdiff's createTwoFilesPatch, nothing before or after.
    for (const file of filesUnder(join(dir, 'storage'))) {
      const text = readFileSync(file, 'utf8')
      const part = JSON.parse(text) as { callID?: string; state?: { metadata?: { filediff?: Record<string, unknown> } } }
      const diff = part.callID === 'toolu_01EdHttp' ? part.state?.metadata?.filediff : undefined
      if (diff) {
        const path = `${WORKTREE}/src/http.ts`
        part.state!.metadata!.filediff = { file: path, patch: createTwoFilesPatch(path, path, HTTP_BEFORE, HTTP_AFTER), additions: 5, deletions: 1 }
      }
      writeFileSync(file, JSON.stringify(diff ? part : JSON.parse(text), null, 2).replaceAll(WORKTREE, workspace))
    }
    mkdirSync(join(workspace, 'src'))
    writeFileSync(join(workspace, 'src', 'http.ts'), HTTP_AFTER)
    const call = contractCaller(runtime({}, { env: { XDG_DATA_HOME: data } }))
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['opencode'] })
    expect(report.changesNotJournaled).toEqual([])
    const main = (await call('sessions.list', { workspaceId: opened.id })).items.find((session) => session.kind === 'main' && session.turnCount === 4)
    expect((await call('changes.ofTurn', { sessionId: main?.id ?? '', turn: 1 })).items.map((change) => [change.path, change.op])).toEqual([['src/http.ts', 'modify']])
    const plan = await call('rewind.plan', { sessionId: main?.id ?? '', turn: 1 })
    await call('rewind.apply', { sessionId: main?.id ?? '', turn: 1, token: plan.token, choices: [] })
    expect(readFileSync(join(workspace, 'src', 'http.ts'), 'utf8')).toBe(HTTP_BEFORE)
  })
})
