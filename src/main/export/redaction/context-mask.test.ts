import { describe, expect, it } from 'vitest'
import { maskContext, readsAsName } from './context-mask'

describe('readsAsName', () => {
  it.each(['export', 'DB_HOST', 'Authorization', 'accessKeyId', 'SecretAccessKey', 'x-api-key', 'spring.datasource', '/usr/local/bin', 'user@example.com', '--force', '&&', '#', '->', 'iPhone'])(
    'shows %j',
    (run) => expect(readsAsName(run)).toBe(true)
  )

  it.each([
    ['a digit', 'hunter2'],
    ['a random key', 'Zq8kLmNo4PxR2vWy7TbHs1Jd'],
    ['mixed case out of the name patterns', 'aBcDeFGhIJ'],
    ['a long run of capitals', 'QWERTYUIOPASDF'],
    ['a word longer than a name', 'supercalifragilisticexpialidocious'],
    ['a symbol inside letters', 'pa$$word'],
    ['base64 with a plus', 'abc+def'],
    ['a letter outside ASCII', 'café'],
    ['a control byte', 'key\u0000'],
    ['four symbols', '!@#$'],
    ['a run past the limit', `a${'-b'.repeat(40)}`]
  ])('hides %s', (_what, run) => expect(readsAsName(run)).toBe(false))
})

describe('maskContext', () => {
  it('keeps punctuation and spacing, shows names and hides values', () => {
    expect(maskContext('DB_HOST=db1\r\nDB_USER="admin" # port 5432\tok')).toBe('DB_HOST=•••⏎DB_USER="admin" # port ••• ok')
    expect(maskContext('{"client_id": "web", "extra": "Zq8kLmNo4PxR2vWy"}')).toBe('{"client_id": "web", "extra": "•••"}')
  })
})
