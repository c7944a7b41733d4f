import { describe, expect, it } from 'vitest'
import { caseFoldKey, checkRelPath, displayPath, keyOf, pathOfKey } from './paths'

describe('workspace-relative paths', () => {
  it.each([
    ['../x', '".." segment'],
    ['a/../../etc/passwd', '".." segment'],
    ['/etc/passwd', 'absolute'],
    ['C:\\Windows\\system.ini', 'backslash'],
    ['C:/Windows', 'drive letter'],
    ['\\\\server\\share\\x', 'backslash'],
    ['a\0b', 'NUL'],
    ['.git/config', '.git'],
    ['sub/.GIT/config', '.GIT'],
    ['sub/.Git', '.Git'],
    ['.hg/hgrc', '.hg'],
    ['sub/.HG/store/00changelog.i', '.HG'],
    ['.jj/repo/store/type', '.jj'],
    ['.svn/wc.db', '.svn'],
    ['lib/.svn/entries', '.svn'],
    ['.bzr/branch/branch.conf', '.bzr'],
    ['_darcs/prefs/defaults', '_darcs'],
    ['.pijul/config', '.pijul'],
    ['.fslckout', '.fslckout'],
    ['sub/_FOSSIL_', '_FOSSIL_'],
    ['a//b', 'empty segment'],
    ['./a', '"." segment'],
    ['', 'empty']
  ])('refuses %j before any I/O', (path, reason) => {
    expect(() => checkRelPath(path)).toThrow(expect.objectContaining({ code: 'VALIDATION', message: expect.stringContaining(reason) as string }) as Error)
  })

  it('accepts ordinary paths, including dot-files, .gitignore and .hgignore', () => {
    for (const path of ['src/index.ts', '.env', '.gitignore', '.hgignore', '.svnignore', 'a/.github/workflows/ci.yml', 'dir.with.dots/file', 'connect.ts', 'über/日本.md', 'x.hg', '.gitmodules', 'my.fossil']) {
      expect(displayPath(checkRelPath(path))).toBe(path)
    }
  })

  const windowsOnly = [
    ['name.', 'dot or a space'],
    ['name ', 'dot or a space'],
    ['CON', 'device name'],
    ['aux.ts', 'device name'],
    ['config/con.json', 'device name'],
    ['dir/nul.txt', 'device name'],
    ['LPT1', 'device name']
  ]

  it.each(windowsOnly)('refuses %j on Windows, which cannot hold it', (path, reason) => {
    expect(() => checkRelPath(path, 'win32')).toThrow(expect.objectContaining({ code: 'VALIDATION', message: expect.stringContaining(reason) as string }) as Error)
  })

  it.each(windowsOnly)('accepts %j on Linux and macOS, where it is an ordinary name', (path) => {
    expect(displayPath(checkRelPath(path, 'linux'))).toBe(path)
    expect(displayPath(checkRelPath(path, 'darwin'))).toBe(path)
  })

  it('keeps non-UTF-8 names byte-exact through keys', () => {
    const latin1Name = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74, 0x78, 0x74]) // "café.txt" in Latin-1
    const path = checkRelPath(latin1Name)
    expect(pathOfKey(keyOf(path)).equals(latin1Name)).toBe(true)
    expect(displayPath(path)).toBe('caf\uFFFD.txt')
  })

  it('folds case for collision checks', () => {
    expect(caseFoldKey(Buffer.from('Readme.MD'))).toBe(caseFoldKey(Buffer.from('README.md')))
  })
})
