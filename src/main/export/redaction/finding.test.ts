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
    const text = `${'word '.repeat(20)}SECRETSECRET ${'more '.repeat(20)}`
    const finding = toFinding(place, text, match(100, 112), [match(100, 112)])
    expect(finding.excerpt).toBe(`…${'word '.repeat(8)}${finding.masked} ${'more '.repeat(7)}more…`)
  })

  it('shows nothing of a neighbour no rule found: only punctuation and names', () => {
    const unknown = 'Zq8kLmNo4PxR2vWy7TbHs1Jd'
    const text = `export GH_TOKEN=${'s'.repeat(20)} ACME_KEY=${unknown} # deploy, see "docs/setup.md"`
    const start = text.indexOf('s')
    const finding = toFinding(place, text, match(start, start + 20), [match(start, start + 20)])
    expect(finding.excerpt).toBe(`export GH_TOKEN=${finding.masked} ACME_KEY=••• # deploy…`)
    for (let i = 0; i + 3 <= unknown.length; i++) expect(finding.excerpt).not.toContain(unknown.slice(i, i + 3))
  })

  it('judges a run the window edge cuts as a whole: its tail does not pass for a word', () => {
    const text = `Q${'q'.repeat(59)}${' '.repeat(20)}SECRETSECRET`
    const finding = toFinding(place, text, match(80, 92), [match(80, 92)])
    expect(finding.excerpt).not.toMatch(/qq/)
    expect(finding.excerpt).toBe(`•••${' '.repeat(20)}${finding.masked}`)
  })

  it('prints no control or direction-changing character (a binary file, a terminal escape)', () => {
    const text = `\u0000\u001b[31mkey\u0007=SECRETSECRET\u202e\u0000tail\u009b`
    const start = text.indexOf('S')
    const finding = toFinding(place, text, match(start, start + 12), [match(start, start + 12)])
    const secretWithEscape = `\u001b${'S'.repeat(11)}`
    expect(toFinding(place, secretWithEscape, match(0, 12), [match(0, 12)]).masked).toBe('·SS…(7 more)…SS')
    expect([...finding.excerpt].filter((char) => /\p{Cc}|\u202e/u.test(char))).toEqual([])
    expect(finding.excerpt).toBe(`•••[•••=${finding.masked}•••`)
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
