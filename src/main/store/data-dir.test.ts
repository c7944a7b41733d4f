import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveDataDir } from './data-dir'

describe('where data lives', () => {
  it('prefers --data-dir, then RETRACE_HOME, then the binding default, then ~/.retrace', () => {
    expect(resolveDataDir({ flag: '/flag', env: { RETRACE_HOME: '/env' }, fallback: '/electron' })).toBe('/flag')
    expect(resolveDataDir({ env: { RETRACE_HOME: '/env' }, fallback: '/electron' })).toBe('/env')
    expect(resolveDataDir({ env: {}, fallback: '/electron/userData' })).toBe('/electron/userData')
    expect(resolveDataDir({ env: {} })).toBe(join(homedir(), '.retrace'))
    expect(resolveDataDir({ flag: 'relative/dir', env: {} })).toBe(resolve('relative/dir'))
  })
})
