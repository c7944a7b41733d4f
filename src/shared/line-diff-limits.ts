/**
 * The window's copy of the line diff's bound and words (the main process's are in
 * src/main/journal/line-diff/bounds.mts, which its diff threads load as they are; a test keeps
 * the two equal). The window diffs tool-call edits and versions across a rename itself.
 */
export const MAX_EDIT_LENGTH = 4_000

/** What every answer past the bounds says. */
export const TOO_MANY_CHANGES = 'too many changes to diff by line'
