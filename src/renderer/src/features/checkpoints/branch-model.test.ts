import { describe, expect, it } from 'vitest'
import { branchTitle, defaultBranchName, mergeModeEffect } from './branch-model'

describe('branch names', () => {
  it('defaults to the name the server would give', () => {
    expect(defaultBranchName('Add search', 2)).toBe('Add search (branch at turn 2)')
    expect(defaultBranchName('  ', 1)).toBe('Session (branch at turn 1)')
  })

  it('sends a trimmed title, or none for an empty one', () => {
    expect(branchTitle('  Try FTS5 ')).toBe('Try FTS5')
    expect(branchTitle('   ')).toBeUndefined()
    expect(branchTitle('x'.repeat(600))).toHaveLength(500)
  })
})

describe('mergeModeEffect', () => {
  const plan = { parentTitle: 'Main', branchMessages: 4, parentMessagesSinceFork: 1 }
  it('says what each mode does with the numbers of the preview', () => {
    expect(mergeModeEffect('append', plan)).toContain('4 messages')
    expect(mergeModeEffect('append', plan)).toContain('1 message since the fork stay')
    expect(mergeModeEffect('replace', plan)).toContain('Nothing is deleted')
  })
})
