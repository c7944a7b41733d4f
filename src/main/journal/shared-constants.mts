/**
 * Constants the journal's main-thread code and its worker threads (scan/scan-worker.mts,
 * blob-writer-worker.mts) must agree on, in one module both import. Under vitest Node runs the
 * workers' sources as they are (see scan-worker.mts), this file with them: so it stays a leaf
 * (no imports) of erasable TypeScript, and a worker that imports it pulls in nothing else. It is
 * `.mts`, and imported as such: Node then knows it is a module, where a `.ts` file in this package
 * (no "type" in package.json) would be parsed twice, with a warning, in every worker.
 */

/**
 * How inline content is deflated, by the blob store and by the scan worker. Level 4 with the
 * larger hash table stores source-like and structured content a few percent smaller than level 1
 * (git's loose-object default) for somewhat more compression time, paid off the main thread in
 * the worker; higher levels cost far more for little.
 */
export const INLINE_DEFLATE = { level: 4, memLevel: 9 } as const

/** Below this, deflate's saving is not worth its CPU (and often negative). */
export const MIN_DEFLATE_BYTES = 128

/** Deflated content is kept only at this share of the raw size or less: reading it back costs an inflate. */
export const MAX_DEFLATED_SHARE = 0.9

/** The name prefix of a rewind's temp and set-aside files in the workspace: never the user's, never scanned. */
export const TEMP_PREFIX = '.retrace-tmp-'

/**
 * A file changed within this long before it was hashed may be written again within the same
 * timestamp tick, leaving its stat as it was (git's "racily clean" problem): its stamp is not
 * trusted. Whole-second timestamps (a file system with 1-2 s resolution) widen it.
 */
export const RACY_WINDOW_MS = 100
export const COARSE_RACY_WINDOW_MS = 2000

export const NS_PER_MS = 1_000_000n
export const NS_PER_S = 1_000_000_000n

/** A blob writer thread's first message, unasked, once its script has loaded: `{ id: READY_REPLY_ID, ok: true }` (requests are numbered from 1). */
export const READY_REPLY_ID = 0
