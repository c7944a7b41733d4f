import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { RetraceError } from '../../shared/contract'
import { tempDir } from '../testing/temp-runtime'
import { prepareDataFolder } from './data-folder'

const isRoot = process.getuid?.() === 0

function refusal(path: string): RetraceError {
  try {
    prepareDataFolder(path, 'retrace.db')
  } catch (error) {
    if (error instanceof RetraceError) return error
    throw error
  }
  throw new Error(`${path} was taken as a data folder`)
}

describe('a data folder that cannot be made is refused in a sentence (R40)', () => {
  const dirs: ReturnType<typeof tempDir>[] = []
  const cleanups: (() => void)[] = []
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup()
    for (const dir of dirs.splice(0)) dir.dispose()
  })
  const folder = () => {
    const dir = tempDir('retrace-data-folder-')
    dirs.push(dir)
    return dir.path
  }

  it('creates a missing folder and its parents, private to the user', () => {
    const path = join(folder(), 'a', 'b', 'data')
    prepareDataFolder(path, 'retrace.db')
    expect(execFileSync('stat', ['-c', '%a', path], { encoding: 'utf8' }).trim()).toBe('700')
  })

  it('names the file that stands where a folder must be: a parent (ENOTDIR), or the data folder itself (EEXIST)', () => {
    const root = folder()
    writeFileSync(join(root, 'notes.txt'), 'a file\n')
    expect(refusal(join(root, 'notes.txt', 'data')).message).toBe(`Retrace cannot keep its data in ${join(root, 'notes.txt', 'data')}: ${join(root, 'notes.txt')} is a file, not a folder. Choose another --data-dir (or RETRACE_HOME).`)
    expect(refusal(join(root, 'notes.txt')).message).toBe(`Retrace cannot keep its data in ${join(root, 'notes.txt')}: it is a file, not a folder. Choose another --data-dir (or RETRACE_HOME).`)
  })

  it('says it may not create a folder where it has no permission (EPERM: an immutable folder as root; EACCES: a read-only one otherwise)', () => {
    const parent = join(folder(), 'locked')
    mkdirSync(parent)
    if (isRoot) {
      execFileSync('chattr', ['+i', parent])
      cleanups.push(() => execFileSync('chattr', ['-i', parent]))
    } else {
      chmodSync(parent, 0o500)
      cleanups.push(() => chmodSync(parent, 0o700))
    }
    const error = refusal(join(parent, 'data'))
    expect(error.message).toBe(`Retrace cannot keep its data in ${join(parent, 'data')}: it may not create folders in ${parent} (${isRoot ? 'EPERM' : 'EACCES'}). Choose another --data-dir (or RETRACE_HOME), or change that folder's permissions.`)
  })

  it('refuses a pseudo file system (/proc, /sys) before trying to create anything there', () => {
    expect(refusal('/proc/retrace-test/data').message).toBe('Retrace cannot keep its data in /proc/retrace-test/data: /proc is a proc file system, which holds no files of its own. Choose another --data-dir (or RETRACE_HOME).')
    expect(refusal('/sys/retrace').message).toContain('/sys is a sysfs file system')
  })
})
