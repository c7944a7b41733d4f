import { describe, expect, it } from 'vitest'
import { findingId, maskSecret, toFinding } from './finding'
import type { RawMatch } from './raw-match'

const match = (start: number, end: number, ruleId = 'test/rule'): RawMatch => ({ ruleId, ruleName: 'Test secret', start, end })

describe('maskSecret', () => {
  it('shows a short head and tail of a long secret and counts the rest', () => {
    expect(maskSecret(['AKIA', 'QWERTYUIOPASDXYZ'].join(''))).toBe('AKIA…(13 more)…XYZ')
  })

  it.each(['a', 'ab', 'abc', 'hunter2', 'abcdefgh', 'x'.repeat(1000)])('never shows all of %j', (secret) => {
    const masked = maskSecret(secret)
    expect(masked).not.toContain(secret)
    const [head = '', tail = ''] = masked.split(/…\(\d+ more\)…/)
    expect(head.length + tail.length).toBeLessThanOrEqual(Math.floor(secret.length / 2))
  })

  it('keeps to one line', () => {
    expect(maskSecret('ab\ncdefghijklmnop\nqr')).toBe('ab⏎c…(13 more)…⏎qr')
  })
})

describe('toFinding', () => {
  const place = { id: 'msg-1', label: 'turn 3 · tool input (Bash)' }

  it('carries the place, the range and a masked excerpt with newlines as ⏎', () => {
    const text = `line one\nexport TOKEN=${'s'.repeat(20)}\nline three`
    const start = text.indexOf('s')
    const finding = toFinding(place, text, match(start, start + 20), [match(start, start + 20)])
    expect(finding).toMatchObject({ placeId: 'msg-1', placeLabel: 'turn 3 · tool input (Bash)', start, end: start + 20, ruleId: 'test/rule', ruleName: 'Test secret' })
    expect(finding.excerpt).toBe(`line one⏎export TOKEN=${finding.masked}⏎line three`)
  })

  it('cuts long context to ~40 characters either side, marked with …', () => {
    const text = `${'a'.repeat(100)}SECRETSECRET${'b'.repeat(100)}`
    const finding = toFinding(place, text, match(100, 112), [match(100, 112)])
    expect(finding.excerpt).toBe(`…${'a'.repeat(40)}${finding.masked}${'b'.repeat(40)}…`)
  })

  it('masks a neighbouring secret in the excerpt, even one the window cuts', () => {
    const text = `${'x'.repeat(50)}FIRSTSECRET${'y'.repeat(30)}SECONDSECRETLONGERTHANTHEWINDOW${'z'.repeat(50)}`
    const first = match(50, 61)
    const second = match(91, 122)
    const finding = toFinding(place, text, first, [first, second])
    expect(finding.excerpt).not.toMatch(/SECRET/)
    expect(finding.excerpt).toContain(maskSecret('SECONDSECRETLONGERTHANTHEWINDOW'))
  })

  it('does not cut an emoji in half at the excerpt edge', () => {
    const text = `${'a'.repeat(9)}😀${'b'.repeat(30)}SECRETSECRET`
    const finding = toFinding(place, text, match(41, 53), [match(41, 53)])
    expect(finding.excerpt).not.toMatch(/[\uD800-\uDFFF](?![\uDC00-\uDFFF])/u)
  })
})

describe('findingId', () => {
  it('is stable for the same place, range and rule, and differs otherwise', () => {
    const id = findingId('p', match(1, 5))
    expect(findingId('p', match(1, 5))).toBe(id)
    expect(new Set([id, findingId('q', match(1, 5)), findingId('p', match(1, 6)), findingId('p', match(1, 5, 'other/rule'))]).size).toBe(4)
  })
})
