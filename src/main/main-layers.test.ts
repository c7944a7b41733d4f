import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const ROOT = join(__dirname, '..', '..')
const MAIN = join(ROOT, 'src/main')

/** The real eslint.config.mjs, only the layer rule: it needs the imported files, not types. */
const layerLint = new ESLint({
  cwd: ROOT,
  ruleFilter: ({ ruleId }) => ruleId === 'boundaries/dependencies',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } }
})

async function layerProblems(file: string, code: string): Promise<string[]> {
  const [result] = await layerLint.lintText(code, { filePath: join(MAIN, file) })
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'fatal'}: ${message.message}`)
}

describe('the main process layers point one way (docs/architecture.md)', () => {
  it.each([
    ['store/example.ts', "import { FileJournal } from '../journal/file-journal'", 'store may not import journal'],
    ['journal/example.ts', "import { Recorder } from '../transcripts/recorder'", 'journal may not import transcripts'],
    ['transcripts/example.ts', "import { ImportService } from '../sources/import-service'", 'transcripts may not import sources'],
    ['sources/example.ts', "import { ExportService } from '../export/export-service'", 'sources may not import export'],
    ['export/example.ts', "import { createHandlers } from '../handlers'", 'export may not import handlers'],
    ['handlers/example.ts', "import { createRuntime } from '../runtime/runtime'", 'handlers may not import runtime'],
    ['sources/example.ts', "import { AgentConnectionsService } from '../agent-hooks/connections-service'", 'sources may not import agent-hooks'],
    ['agent-hooks/example.ts', "import { createHandlers } from '../handlers'", 'agent-hooks may not import handlers'],
    ['runtime/example.ts', "import { startWebServer } from '../web/server'", 'runtime may not import binding'],
    ['fs/example.ts', "import { openStore } from '../store/store'", 'foundation may not import store'],
    ['journal/example.ts', "import { tempRuntime } from '../testing/temp-runtime'", 'may not import'],
    ['sources/example.ts', "import { writeSpotterCopies } from './testing/session-copies'", 'may not import']
  ])('rejects an import against the direction: %s: %s', async (file, code, message) => {
    const found = await layerProblems(file, code)
    expect(found).toHaveLength(1)
    expect(found[0]).toContain(message)
  })

  it.each([
    ['handlers/example.ts', "import { ImportService } from '../sources/import-service'"],
    ['agent-hooks/example.ts', "import { claudeRoots } from '../sources/claude-code/discover'"],
    ['handlers/example.ts', "import { AgentConnectionsService } from '../agent-hooks/connections-service'"],
    ['sources/example.ts', "import { Recorder } from '../transcripts/recorder'"],
    ['journal/example.ts', "import { checkRelPath } from '../fs/paths'"],
    ['web/example.ts', "import { createRuntime } from '../runtime/runtime'"],
    ['journal/example.test.ts', "import { tempRuntime } from '../testing/temp-runtime'"]
  ])('accepts an import down the layers, and tests importing anything: %s: %s', async (file, code) => {
    expect(await layerProblems(file, code)).toEqual([])
  })
})

describe('SQL lives in the store', () => {
  // Type-aware (it tells a SQLite connection's `prepare` from any other), so the code must be a
  // file of the TypeScript project: the probe is written, linted and removed.
  async function sqlProblems(folder: string, code: string): Promise<string[]> {
    const file = join(MAIN, folder, `sql-probe-${process.pid}.ts`)
    writeFileSync(file, code)
    try {
      const eslint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => ruleId === 'retrace/sql-in-store' })
      const [result] = await eslint.lintFiles([file])
      return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'fatal'}: ${message.message}`)
    } finally {
      rmSync(file, { force: true })
    }
  }

  const probe = `import type { Db } from '../store/database'
export const count = (db: Db): unknown => db.prepare('SELECT count(*) FROM sessions').get()
export const version = (db: Db): unknown => db.pragma('user_version')
export const match = (text: string): unknown => /a/.exec(text)
`

  it('reports a statement prepared outside the store, and not a RegExp exec', async () => {
    const found = await sqlProblems('journal', probe)
    expect(found).toHaveLength(2)
    for (const problem of found) expect(problem).toMatch(/^retrace\/sql-in-store: SQL belongs in src\/main\/store/)
  })

  it('accepts the same statements inside the store', async () => {
    expect(await sqlProblems('store', probe.replace("'../store/database'", "'./database'"))).toEqual([])
  })
})
