import { join } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const ROOT = join(__dirname, '..', '..')

// The real eslint.config.mjs, but only the rule under test and without type information: the
// snippets are not files on disk, so the TypeScript project service could not load them.
// (This test lives under src/main because it needs Node, which renderer code may not import.)
const eslint = new ESLint({
  cwd: ROOT,
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } }
})

/** Every problem ESLint reports for `code` as if it were the renderer file `file` (parse errors included). */
async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, 'src/renderer/src', file) })
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'fatal'}: ${message.message}`)
}

describe('renderer features are imported only through their index.ts', () => {
  it.each([
    ['features/transcript/Example.tsx', "import { DiffView } from '../files/DiffView'"],
    ['features/transcript/Example.tsx', "import { DiffView } from '../files/index'"],
    ['features/transcript/messages/Example.tsx', "import { ChangeRow } from '../../files/ChangeRow'"],
    ['app/Example.ts', "import { filesKeys } from '../features/files/queries'"],
    ['main.tsx', "import { App } from './features/workspace/WorkspaceView'"]
  ])('rejects a deep import into another feature: %s: %s', async (file, code) => {
    const found = await problems(file, code)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatch(/^no-restricted-imports: .*only through its face/)
  })

  it.each([
    ['features/transcript/Example.tsx', "import { DiffView } from '../files'"],
    ['features/transcript/Example.tsx', "import { buildRows } from './rows'"],
    ['features/transcript/messages/Example.tsx', "import { Markdown } from '../markdown/Markdown'"],
    ['features/transcript/messages/Example.tsx', "import { TurnFiles } from '../../files'"],
    ['features/files/Example.tsx', "import { highlight } from '../../ui/highlighter'"],
    ['app/Example.ts', "import { filesKeys } from '../features/files'"]
  ])('accepts an index, a sibling or a shared module: %s: %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([])
  })
})
