import { spawnSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../testing/temp-runtime'
import { appLockHolder, holdAppLock } from './app-lock'

const dirs: { dispose(): void }[] = []
afterEach(() => dirs.splice(0).forEach((dir) => dir.dispose()))

describe('the app lock', () => {
  it('names the running app while it holds the lock, and nobody once released', () => {
    const dir = tempDir()
    dirs.push(dir)
    expect(appLockHolder(dir.path)).toBeNull()
    const release = holdAppLock(dir.path)
    expect(appLockHolder(dir.path)).toBe(process.pid)
    release()
    expect(existsSync(join(dir.path, 'app.pid'))).toBe(false)
    expect(appLockHolder(dir.path)).toBeNull()
  })

  it('is not held by a process that crashed and left the file', () => {
    const dir = tempDir()
    dirs.push(dir)
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout
    writeFileSync(join(dir.path, 'app.pid'), gone)
    expect(appLockHolder(dir.path)).toBeNull()
    writeFileSync(join(dir.path, 'app.pid'), 'garbage')
    expect(appLockHolder(dir.path)).toBeNull()
  })
})
