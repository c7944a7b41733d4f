import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { PACKAGE_NAME, packageRoot } from '../agent-hooks/retrace-command'
import { tempDir } from '../testing/temp-runtime'
import { currentFolderUnlessRetrace } from './default-folder'
import { runCli } from './main'

const dirs: ReturnType<typeof tempDir>[] = []
afterEach(() => dirs.splice(0).forEach((dir) => dir.dispose()))

function folder() {
  const dir = tempDir('retrace-default-')
  dirs.push(dir)
  return dir.path
}

async function cli(args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(args, { out: (text) => out.push(text), err: (text) => err.push(text) }, {})
  return { code, out: out.join('\n'), err: err.join('\n') }
}

const ROOT = packageRoot()

describe('"default: this folder" is never Retrace\'s own installation', () => {
  it('the current folder is the default, except Retrace\'s folder and the folders inside it', () => {
    const elsewhere = folder()
    expect(currentFolderUnlessRetrace(elsewhere, ROOT)).toBe(elsewhere)
    expect(currentFolderUnlessRetrace(ROOT, ROOT)).toBeNull()
    expect(currentFolderUnlessRetrace(join(ROOT, 'src', 'main'), ROOT)).toBeNull()
    expect(currentFolderUnlessRetrace(`${ROOT}-sibling`, ROOT)).toBe(`${ROOT}-sibling`)
  })

  it('`retrace import` typed in the clone refuses (exit 2) and imports nothing; `retrace import .` takes the folder as named', async () => {
    expect(process.cwd()).toBe(ROOT) // vitest runs in the repository
    const data = join(folder(), 'data')
    expect(await cli(['import', '--data-dir', data])).toEqual({
      code: 2,
      out: '',
      err: `retrace: The current folder (${ROOT}) is Retrace's own installation, not a workspace: name the workspace (\`retrace import ~/code/shop\`), or give \`.\` to use this folder anyway.`
    })
    expect(existsSync(data)).toBe(false)
    const exported = join(folder(), 'export.json')
    writeFileSync(exported, '{}') // the file is checked first; the workspace question comes next
    expect((await cli(['import-json', exported, '--data-dir', data])).err).toContain("is Retrace's own installation, not a workspace: name the workspace (`--workspace ~/code/shop`)")
    expect((await cli(['hooks', 'install', '--scope', 'project', '--data-dir', data])).code).toBe(2)
    expect(existsSync(join(ROOT, '.claude', 'settings.json'))).toBe(false)

    const named = await cli(['import', '.', '--json', '--data-dir', data])
    expect(named.code).toBe(0)
    expect((JSON.parse(named.out) as { workspace: { path: string } }).workspace.path).toBe(ROOT)
  })

  it('the package has a name of its own (npm\'s `retrace` is another tool); its command is still `retrace`', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; bin: Record<string, string> }
    expect(manifest.name).toBe(PACKAGE_NAME)
    expect(manifest.name).not.toBe('retrace')
    expect(manifest.bin).toEqual({ retrace: 'bin/retrace.js' })
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { name: string; packages: Record<string, { name?: string }> }
    expect([lock.name, lock.packages['']?.name]).toEqual([PACKAGE_NAME, PACKAGE_NAME])
  })
})
