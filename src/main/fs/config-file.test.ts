import { execFileSync } from 'node:child_process'
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../testing/temp-runtime'
import { ConfigFileRefused, readConfigFile } from './config-file.mts'

const posix = process.platform !== 'win32'

describe('readConfigFile: settings are read only from regular files, bounded, without blocking', () => {
  const dirs: ReturnType<typeof tempDir>[] = []
  afterEach(() => dirs.splice(0).forEach((dir) => dir.dispose()))
  const folder = () => {
    const dir = tempDir('retrace-config-file-')
    dirs.push(dir)
    return dir.path
  }

  it('reads a regular file, through a link too; nothing there (no file, no folder, a link to nothing) is null', () => {
    const dir = folder()
    writeFileSync(join(dir, 'settings.json'), '{ "a": 1 }\n')
    symlinkSync(join(dir, 'settings.json'), join(dir, 'linked.json'))
    symlinkSync(join(dir, 'gone.json'), join(dir, 'dangling.json'))
    expect(readConfigFile(join(dir, 'settings.json'))?.toString()).toBe('{ "a": 1 }\n')
    expect(readConfigFile(join(dir, 'linked.json'))?.toString()).toBe('{ "a": 1 }\n')
    expect(readConfigFile(join(dir, 'missing.json'))).toBeNull()
    expect(readConfigFile(join(dir, 'no-folder', 'x.json'))).toBeNull()
    expect(readConfigFile(join(dir, 'settings.json', 'below'))).toBeNull()
    expect(readConfigFile(join(dir, 'dangling.json'))).toBeNull()
  })

  it.skipIf(!posix).each([
    ['a link to /dev/zero', (dir: string) => symlinkSync('/dev/zero', join(dir, '.mcp.json')), 'is a link to /dev/zero (a character device), not a regular file'],
    ['a FIFO', (dir: string) => execFileSync('mkfifo', [join(dir, '.mcp.json')]), 'is a named pipe (FIFO), not a regular file'],
    ['a folder', (dir: string) => mkdirSync(join(dir, '.mcp.json')), 'is a folder, not a regular file'],
    ['a 100 MB file', (dir: string) => {
      writeFileSync(join(dir, '.mcp.json'), '{}')
      truncateSync(join(dir, '.mcp.json'), 100 * 1024 * 1024)
    }, 'is 100 MB, more than the 4.0 MB a settings file may have']
  ])('refuses %s with a sentence naming the file', (_what, make, says) => {
    const dir = folder()
    make(dir)
    const file = join(dir, '.mcp.json')
    let refusal: unknown
    try {
      readConfigFile(file)
    } catch (error) {
      refusal = error
    }
    expect(refusal).toBeInstanceOf(ConfigFileRefused)
    expect((refusal as ConfigFileRefused).message).toContain(`${file} ${says}`)
    expect((refusal as ConfigFileRefused).file).toBe(file)
  })
})
