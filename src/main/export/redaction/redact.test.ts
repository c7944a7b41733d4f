import { describe, expect, it } from 'vitest'
import { redactInPlace, redactText } from './redact'
import type { SecretFinding } from './types'

const finding = (start: number, end: number, ruleName = 'Token'): SecretFinding => ({
  id: `${start}-${end}`,
  ruleId: 'test/rule',
  ruleName,
  placeId: 'p',
  placeLabel: 'p',
  start,
  end,
  masked: '…',
  excerpt: '…'
})

describe('redactText', () => {
  const text = 'user=admin token=AAAA key=BBBB end'
  const at = (word: string): [number, number] => [text.indexOf(word), text.indexOf(word) + word.length]

  it('replaces each finding with a marker naming its rule, in any order', () => {
    const [a, b] = [at('AAAA'), at('BBBB')]
    expect(redactText(text, [finding(...b, 'Key'), finding(...a)])).toBe('user=admin token=[REDACTED: Token] key=[REDACTED: Key] end')
  })

  it('merges overlapping ranges into one marker', () => {
    const start = text.indexOf('AAAA')
    expect(redactText(text, [finding(start, start + 3, 'First'), finding(start + 2, start + 10, 'Second')])).toBe('user=admin token=[REDACTED: First]BBB end')
  })

  it('returns the text unchanged without findings, and cuts ranges to the text', () => {
    expect(redactText(text, [])).toBe(text)
    expect(redactText('abc SECRET', [finding(4, 99)])).toBe('abc [REDACTED: Token]')
    expect(redactText('abc', [finding(5, 9), finding(2, 2)])).toBe('abc')
  })
})

describe('redactInPlace', () => {
  const bytes = `\u0000\u00ffkey=${'A'.repeat(30)}\u0000pin=1234\u0000`
  const at = (word: string): [number, number] => [bytes.indexOf(word), bytes.indexOf(word) + word.length]

  it('hides each secret with a marker of its own length, so every other byte keeps its offset', () => {
    const redacted = redactInPlace(bytes, [finding(...at('A'.repeat(30)), 'GitHub Token'), finding(...at('1234'), 'PIN')])
    expect(redacted).toBe(`\u0000\u00ffkey=[REDACTED: GitHub Token]******\u0000pin=****\u0000`)
    expect(redacted).toHaveLength(bytes.length)
  })

  it('names the rule when it fits, says [REDACTED] when only that fits, and merges overlaps', () => {
    const [start] = at('A'.repeat(30))
    expect(redactInPlace(bytes, [finding(start, start + 12, 'Long rule name')]).slice(start, start + 12)).toBe('[REDACTED]**')
    expect(redactInPlace(bytes, [finding(start, start + 10), finding(start + 5, start + 30)])).toBe(redactInPlace(bytes, [finding(start, start + 30)]))
  })
})
