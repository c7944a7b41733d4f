/**
 * Files a rewind replaces or deletes are set aside, not freed, while it runs: each is renamed
 * to a name beside it (a temp name plus `-replaced`, so it carries the temp prefix the scan
 * leaves out) before the new content is put at its path (replace-file.ts). Nothing is freed on
 * the way: freeing a file's blocks is the slowest part of replacing it (on ext4 mounted with
 * `discard` it waits for the device), and nothing the rewind promises depends on it. Once the
 * rewind is complete, the files set aside that nobody wrote to meanwhile are removed in the
 * background (asides.ts removeAsides), where the blocks are freed at last; their content is in
 * the store, captured before anything changed. One somebody wrote to is kept, visible.
 *
 * The names are chosen before the intent log is written, and it records them: a crash before
 * the rewind completed rolls it back, putting a file found set aside back at its path; one
 * after only removes them (recover.ts).
 */
export const asideOf = (temp: Buffer): Buffer => Buffer.concat([temp, SUFFIX])

/**
 * The temp file a write step puts in place, named with its aside: a crash that left the file
 * set aside and the path empty is told from a finished step whose file was deleted since by
 * the temp still being there (recover.ts, steps.ts revertStep).
 */
export const tempOfAside = (aside: Buffer): Buffer => aside.subarray(0, aside.length - SUFFIX.length)

const SUFFIX = Buffer.from('-replaced')
