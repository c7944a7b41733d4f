import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../testing/temp-runtime'
import { ConfigFileChanged, configFileTarget, replaceConfigFile } from './config-file-write'

const posix = process.platform !== 'win32'

describe('writing a settings file: through its link, and never over a change made meanwhile', () => {
  const dirs: ReturnType<typeof tempDir>[] = []
  afterEach(() => dirs.splice(0).forEach((dir) => dir.dispose()))

  it.skipIf(!posix)('writes where a link leads, and refuses a link to nothing', () => {
    const dir = tempDir('retrace-config-write-')
    dirs.push(dir)
    mkdirSync(join(dir.path, 'dotfiles'))
    writeFileSync(join(dir.path, 'dotfiles', 'settings.json'), '{}\n')
    symlinkSync(join(dir.path, 'dotfiles', 'settings.json'), join(dir.path, 'settings.json'))
    expect(configFileTarget(join(dir.path, 'settings.json'))).toBe(join(dir.path, 'dotfiles', 'settings.json'))
    expect(configFileTarget(join(dir.path, 'new.json'))).toBe(join(dir.path, 'new.json'))
    symlinkSync(join(dir.path, 'dotfiles', 'gone.json'), join(dir.path, 'dangling.json'))
    expect(() => configFileTarget(join(dir.path, 'dangling.json'))).toThrow(`${join(dir.path, 'dangling.json')} is a link to ${join(dir.path, 'dotfiles', 'gone.json')}, which does not exist: Retrace does not replace the link.`)
  })

  it('replaces the file only if it still holds what was read, and leaves no temp file either way', () => {
    const dir = tempDir('retrace-config-write-')
    dirs.push(dir)
    const file = join(dir.path, 'config.toml')
    writeFileSync(file, 'a = 1\n')
    replaceConfigFile(file, 'a = 2\n', Buffer.from('a = 1\n'))
    expect(readFileSync(file, 'utf8')).toBe('a = 2\n')
    expect(() => replaceConfigFile(file, 'a = 3\n', Buffer.from('a = 2\n'), () => writeFileSync(file, 'a = 2\nb = 1\n'))).toThrow(ConfigFileChanged)
    expect(readFileSync(file, 'utf8')).toBe('a = 2\nb = 1\n')
    expect(() => replaceConfigFile(join(dir.path, 'new.toml'), 'x = 1\n', null, () => writeFileSync(join(dir.path, 'new.toml'), 'mine = 1\n'))).toThrow(`${join(dir.path, 'new.toml')} was changed by someone else while Retrace was editing it`)
    expect(execFileSync('ls', ['-A', dir.path], { encoding: 'utf8' }).split('\n').filter(Boolean).sort()).toEqual(['config.toml', 'new.toml'])
  })
})
