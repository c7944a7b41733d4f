import { describe, expect, it } from 'vitest'
import { dayLabel, groupByDay } from './day-groups'

// Local times, as the list shows them: Monday 7 December 2026, 15:00.
const NOW = new Date(2026, 11, 7, 15, 0).getTime()
const at = (month: number, day: number, hour = 12, year = 2026) => new Date(year, month - 1, day, hour).getTime()
const row = (id: string, updatedAt: number, depth = 0) => ({ depth, session: { id, updatedAt } })

/** The list as a reader sees it: "# day (count)" headers and session ids. */
const shape = (rows: ReturnType<typeof row>[]) => groupByDay(rows, NOW).map((item) => (item.kind === 'day' ? `# ${item.label} (${item.count})` : item.row.session.id))

describe('the session list by day', () => {
  it('names today, yesterday, the weekdays of the last week, then dates (with the year when another)', () => {
    expect(dayLabel(at(12, 7, 0), NOW)).toBe('Today')
    expect(dayLabel(at(12, 6, 23), NOW)).toBe('Yesterday')
    expect(dayLabel(at(12, 2), NOW)).toBe(new Date(at(12, 2)).toLocaleDateString(undefined, { weekday: 'long' }))
    expect(dayLabel(at(12, 1), NOW)).toBe(new Date(at(12, 1)).toLocaleDateString(undefined, { weekday: 'long' }))
    const older = dayLabel(at(11, 30), NOW)
    expect(older).not.toMatch(/2026/)
    expect(older).toContain('30')
    expect(dayLabel(at(12, 30, 12, 2025), NOW)).toContain('2025')
  })

  it('puts a header before the first session of each day, counting what is under it', () => {
    expect(shape([row('a', at(12, 7, 14)), row('b', at(12, 7, 9)), row('c', at(12, 6)), row('d', at(11, 2))])).toEqual([
      '# Today (2)',
      'a',
      'b',
      '# Yesterday (1)',
      'c',
      expect.stringMatching(/^# .*2.* \(1\)$/),
      'd'
    ])
  })

  it("keeps a tree whole under its top row's day, whenever its sub-sessions ran", () => {
    // A sub-agent last active yesterday, under a parent active today: no header between them.
    const items = shape([row('parent', at(12, 7)), row('agent', at(12, 6), 1), row('fork', at(11, 1), 2), row('older', at(12, 6))])
    expect(items).toEqual(['# Today (3)', 'parent', 'agent', 'fork', '# Yesterday (1)', 'older'])
  })

  it("gives each session its index among the sessions, which the keyboard moves by", () => {
    const items = groupByDay([row('a', at(12, 7)), row('b', at(12, 6)), row('c', at(12, 5))], NOW)
    expect(items.flatMap((item) => (item.kind === 'session' ? [item.index] : []))).toEqual([0, 1, 2])
    expect(groupByDay([], NOW)).toEqual([])
  })
})
