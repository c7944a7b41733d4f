import { describe, expect, it } from 'vitest'
import { redactText } from './redact'
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
