import ignore from 'ignore'
import { readConfigText } from '../../../fs/config-file.mts'

type Ignore = ReturnType<typeof ignore>

/** The rules of one ignore file, matched against paths relative to its folder `base`. */
export interface IgnoreLevel {
  base: Buffer
  ig: Ignore
}

// git's core.ignorecase default: true where the usual file system is case-insensitive.
const IGNORE_CASE = process.platform === 'darwin' || process.platform === 'win32'
const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

// git ignores a larger ignore file (dir.c, "ignoring overly large gitignore file").
const MAX_IGNORE_FILE_BYTES = 100 * 1024 * 1024

/**
 * The rules of `file` (.gitignore, .git/info/exclude) for paths under `base`, or null. Read only
 * as a regular file (a FIFO named .gitignore in a cloned repository would block the scan forever).
 */
export function readIgnoreFile(base: Buffer, file: Buffer): IgnoreLevel | null {
  try {
    const text = readConfigText(file, { maxBytes: MAX_IGNORE_FILE_BYTES })
    return text === null ? null : { base, ig: ignore({ ignorecase: IGNORE_CASE }).add(text) }
  } catch {
    return null // missing, unreadable or not a file: git goes on without it too
  }
}

/** git's precedence: later rules win inside a file, deeper files win over shallower ones. */
export function isIgnored(levels: IgnoreLevel[], rel: Buffer, isDir: boolean): boolean {
  let ignored = false
  for (const level of levels) {
    try {
      const sub = strictUtf8.decode(level.base.length === 0 ? rel : rel.subarray(level.base.length + 1))
      const result = level.ig.test(isDir ? `${sub}/` : sub)
      if (result.ignored) ignored = true
      else if (result.unignored) ignored = false
    } catch {
      // Not UTF-8, or a name `ignore` refuses as a path (e.g. `...`): it cannot match, so it is recorded.
    }
  }
  return ignored
}
