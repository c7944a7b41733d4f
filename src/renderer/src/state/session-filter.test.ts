import { describe, expect, it } from 'vitest'
import { isFiltered, matchesFilters, NO_FILTERS, type FilterableSession } from './session-filter'

const at = (day: string, hour = 12) => new Date(`${day}T${String(hour).padStart(2, '0')}:00:00`).getTime()
const session = (over: Partial<FilterableSession> = {}): FilterableSession => ({
  title: 'Fix the login form',
  source: 'claude-code',
  kind: 'main',
  createdAt: at('2026-03-10', 9),
  updatedAt: at('2026-03-10', 18),
  filesChanged: 2,
  ...over
})

describe('matchesFilters', () => {
  it('passes everything with no filter', () => {
    expect(isFiltered(NO_FILTERS)).toBe(false)
    expect(matchesFilters(session({ filesChanged: 0 }), NO_FILTERS)).toBe(true)
  })

  it('matches the text in the title, case-insensitively, unless the caller does the text', () => {
    const filters = { ...NO_FILTERS, query: '  LOGIN ' }
    expect(matchesFilters(session(), filters)).toBe(true)
    expect(matchesFilters(session({ title: 'Refactor' }), filters)).toBe(false)
    expect(matchesFilters(session({ title: 'Refactor' }), filters, false)).toBe(true)
  })

  it('keeps a session that ran on any day of the range, both ends included', () => {
    const running = session({ createdAt: at('2026-03-08'), updatedAt: at('2026-03-12') })
    expect(matchesFilters(running, { ...NO_FILTERS, from: '2026-03-10', until: '2026-03-10' })).toBe(true)
    expect(matchesFilters(session(), { ...NO_FILTERS, until: '2026-03-10' })).toBe(true)
    expect(matchesFilters(session(), { ...NO_FILTERS, from: '2026-03-10' })).toBe(true)
    expect(matchesFilters(session(), { ...NO_FILTERS, from: '2026-03-11' })).toBe(false)
    expect(matchesFilters(session(), { ...NO_FILTERS, until: '2026-03-09' })).toBe(false)
  })

  it('filters by source, changed files and branches', () => {
    expect(matchesFilters(session(), { ...NO_FILTERS, source: 'codex' })).toBe(false)
    expect(matchesFilters(session({ filesChanged: 0 }), { ...NO_FILTERS, changedFiles: true })).toBe(false)
    // A list row does not know its files: it is not filtered out for that.
    expect(matchesFilters(session({ filesChanged: undefined }), { ...NO_FILTERS, changedFiles: true })).toBe(true)
    expect(matchesFilters(session(), { ...NO_FILTERS, branchesOnly: true })).toBe(false)
    expect(matchesFilters(session({ kind: 'branch' }), { ...NO_FILTERS, branchesOnly: true })).toBe(true)
  })
})
