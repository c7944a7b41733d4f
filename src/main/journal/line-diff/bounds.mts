/**
 * How far a line diff goes before it gives up, shared by the diff thread (diff-worker.mts) and
 * the main thread (diff-thread.ts). A leaf of erasable TypeScript, loaded by the worker as it is.
 *
 * jsdiff's Myers diff costs about the square of the number of changed lines: a 2,000-line file
 * whose every line changed is 4,000 edits (~0.4 s here), 38,000 lines all changed would be
 * 76,000 edits (minutes). So:
 */

/** Edits (added + removed lines) past which the diff stops: ~0.8 s of jsdiff at worst here. */
export const MAX_EDIT_LENGTH = 4_000

/** And jsdiff's own clock, for a slower machine: past this the diff stops as well. */
export const DIFF_TIMEOUT_MS = 3_000

/**
 * A thread that has not answered long after both bounds (a bug, a pathological tokenisation)
 * is ended; its diff reports too many changes. Generous: it only catches what the bounds miss.
 */
export const DIFF_THREAD_DEADLINE_MS = 30_000

/** What every answer past the bounds says, in the window, the CLI, MCP and exports. */
export const TOO_MANY_CHANGES = 'too many changes to diff by line'
