import { describe, expect, it } from 'vitest'
import { mergeOverlaps } from './merge-overlaps'
import type { RawMatch } from './raw-match'

const match = (ruleId: string, start: number, end: number): RawMatch => ({ ruleId, ruleName: ruleId, start, end })

describe('mergeOverlaps', () => {
  it('keeps apart matches that do not overlap (touching is not overlapping)', () => {
    const matches = [match('a', 10, 20), match('b', 0, 5), match('c', 20, 25)]
    expect(mergeOverlaps(matches)).toEqual([match('b', 0, 5), match('a', 10, 20), match('c', 20, 25)])
  })

  it('names an overlap after the provider rule, not the generic one, and covers both ranges', () => {
    const merged = mergeOverlaps([match('retrace/password-assignment', 12, 70), match('@secretlint/secretlint-rule-stripe', 12, 64)])
    expect(merged).toEqual([match('@secretlint/secretlint-rule-stripe', 12, 70)])
  })

  it('ranks the yielding rules: JWT over connection strings over basic auth over bearer tokens over key assignments over passwords, the AWS fallback over all', () => {
    const rules = ['retrace/password-assignment', 'retrace/secret-assignment', 'retrace/bearer-token', '@secretlint/secretlint-rule-basicauth', '@secretlint/secretlint-rule-database-connection-string', 'retrace/jwt', 'retrace/aws-secret-access-key']
    for (let i = 1; i < rules.length; i++) {
      const [lower = '', higher = ''] = [rules[i - 1], rules[i]]
      expect(mergeOverlaps([match(higher, 5, 10), match(lower, 0, 30)])[0]?.ruleId).toBe(higher)
    }
  })

  it('names a key both AWS rules found after the preset rule', () => {
    const merged = mergeOverlaps([match('retrace/aws-secret-access-key', 22, 62), match('@secretlint/secretlint-rule-aws', 22, 62)])
    expect(merged).toEqual([match('@secretlint/secretlint-rule-aws', 22, 62)])
  })

  it('prefers the longer match between rules of the same rank, and merges chains', () => {
    expect(mergeOverlaps([match('x', 0, 10), match('y', 5, 30), match('z', 25, 40)])).toEqual([match('y', 0, 40)])
  })
})
