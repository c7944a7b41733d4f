import { describe, expect, it } from 'vitest'
import { toFtsQuery } from './fts-query'

describe('toFtsQuery', () => {
  it('quotes every word, ANDs them, and prefix-matches a last word of 3+ characters', () => {
    expect(toFtsQuery('cache invalidation')).toBe('"cache" "invalidation"*')
    expect(toFtsQuery('fil')).toBe('"fil"*')
    expect(toFtsQuery('fi')).toBe('"fi"')
    expect(toFtsQuery('f')).toBe('"f"')
  })

  it('treats FTS5 syntax as text and returns null when there is no word', () => {
    expect(toFtsQuery('a AND NEAR(b "c*')).toBe('"a" "AND" "NEAR" "b" "c"')
    expect(toFtsQuery('col:value')).toBe('"col" "value"*')
    expect(toFtsQuery('" * ( )')).toBeNull()
    expect(toFtsQuery('')).toBeNull()
  })

  it('keeps letters of any script', () => {
    expect(toFtsQuery('Überprüfung 検索')).toBe('"Überprüfung" "検索"')
  })
})

describe('toFtsQuery with the index’s terms for the prefix', () => {
  const terms = (known: string[]) => (prefix: string) => known.filter((term) => term.startsWith(prefix))
  it('ORs the terms a plain last word stands for, lower-cased, and keeps FTS5’s prefix otherwise', () => {
    expect(toFtsQuery('test FAI', terms(['fail', 'failed', 'other']))).toBe('"test" AND ("fail" OR "failed")')
    expect(toFtsQuery('cach', terms(['cache']))).toBe('"cache"')
    expect(toFtsQuery('zzz', terms([]))).toBe('"zzz"*')
    expect(toFtsQuery('zzz', () => null)).toBe('"zzz"*')
    expect(toFtsQuery('Überp', terms(['überprüfung']))).toBe('"Überp"*')
    expect(toFtsQuery('fi', terms(['file']))).toBe('"fi"')
  })
})
