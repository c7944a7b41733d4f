import { describe, expect, it } from 'vitest'
import { branchTitle, defaultBranchName, mergeIntro, mergeModeEffect, mergeNothingText, mergeUnavailableReason } from './branch-model'

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
  const plan = { parentTitle: 'Main', branchMessages: 4, parentMessagesSinceFork: 1, alreadyMerged: 0 }
  it('says what each mode does with the numbers of the preview', () => {
    expect(mergeModeEffect('append', plan)).toContain('4 messages')
    expect(mergeModeEffect('append', plan)).toContain('1 message since the fork stay')
    expect(mergeModeEffect('replace', plan)).toContain('Nothing is deleted')
  })
})

describe('merging a branch again', () => {
  const again = { parentTitle: 'Main', branchMessages: 1, parentMessagesSinceFork: 0, alreadyMerged: 3 }
  it('says earlier messages were merged already, and only the new ones are taken', () => {
    expect(mergeIntro(again)).toContain('first 3 messages are there already')
    expect(mergeIntro(again)).toContain('1 message new')
    expect(mergeModeEffect('append', again)).toContain('1 message added since the last merge')
    expect(mergeModeEffect('replace', again)).toContain('0 messages since the last merge out of')
    expect(mergeNothingText(again)).toBeNull()
  })

  it('says there is nothing new, in the dialog and on the disabled button', () => {
    expect(mergeNothingText({ ...again, branchMessages: 0 })).toMatch(/^Already merged; nothing new since/)
    expect(mergeNothingText({ ...again, branchMessages: 0, alreadyMerged: 0 })).toMatch(/^Nothing to merge yet/)
    expect(mergeUnavailableReason({ newMessages: 0 }, 'Main')).toBe('Already merged into “Main”; nothing new since. Add messages to this branch to merge again.')
    expect(mergeUnavailableReason({ newMessages: 2 }, 'Main')).toBeNull()
    expect(mergeUnavailableReason(null, 'Main')).toBeNull()
  })
})
