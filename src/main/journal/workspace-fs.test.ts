import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../testing/temp-runtime'
import { TEMP_PREFIX } from './shared-constants.mts'
import { WorkspaceFs } from './workspace-fs'

describe('temp names beside a file', () => {
  const dirs: { dispose(): void }[] = []
  afterEach(() => dirs.splice(0).forEach((dir) => dir.dispose()))

  it('are in the file’s folder, carry the prefix recovery sweeps, and never repeat (past a refill of the random pool)', () => {
    const dir = tempDir('retrace-temp-names-')
    dirs.push(dir)
    const fs = new WorkspaceFs(dir.path)
    const target = Buffer.from(`${fs.root.toString()}/sub/file.txt`)
    const names = Array.from({ length: 2000 }, () => fs.tempBeside(target).toString())
    for (const name of names) expect(name).toMatch(new RegExp(`^${fs.root.toString()}/sub/${TEMP_PREFIX.replace('.', '\\.')}[0-9a-f]{12}$`))
    expect(new Set(names).size).toBe(names.length)
  })
})
