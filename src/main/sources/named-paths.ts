/**
 * The paths a tool call's input names, for the accounting rule's "unknown tool, may have changed
 * files" (docs/reliability.md R43). Precise on purpose, so that a tool that only looks things up
 * is not reported:
 * - a key that names a file: `path`, `file_path`, `filePath`, `target_file`, `notebook_path`,
 *   `paths`, `files`… (compared without case, `_` or `-`), whose value is a non-empty string, or
 *   an array of strings or of objects with such a key (`files: [{ path }]`, MultiEdit-like);
 * - otherwise, a top-level string value that looks like a path and nothing else: absolute
 *   (`/a/b`, `C:\a`, `~/a`), or relative with a folder and a file name (`src/app.ts`,
 *   `./notes.md`). No whitespace or line break (a command, a sentence), no `://` (a URL).
 * A folder key (`dir`, `cwd`) alone is no file: listing a folder changes nothing.
 */
const FILE_KEYS = new Set([
  'path',
  'paths',
  'filepath',
  'filepaths',
  'file',
  'files',
  'filename',
  'filenames',
  'targetfile',
  'targetpath',
  'targetfiles',
  'notebookpath',
  'sourcepath',
  'destinationpath',
  'destination',
  'newpath',
  'oldpath',
  'outputpath',
  'outputfile',
  'absolutepath',
  'relativepath',
  'relativeworkspacepath'
])

/** Keys naming a folder to work in or look through: not a file the call may change. */
const FOLDER_KEYS = new Set(['dir', 'directory', 'cwd', 'workdir', 'workingdirectory', 'folder', 'root', 'dirpath', 'directorypath'])

const ABSOLUTE = /^(?:\/[^/\s]|[A-Za-z]:[\\/]|~[\\/])/
const RELATIVE_WITH_FOLDER = /^(?:\.{1,2}[\\/])?[\w@.+-]+(?:[\\/][\w@.+-]+)+$/
const FILE_NAME_LIKE = /^\.{0,2}[\\/]?[\w@.+-]+\.[A-Za-z0-9]{1,10}$/

function looksLikePath(value: string): boolean {
  if (value.length === 0 || value.length > 1024 || /\s/.test(value) || value.includes('://')) return false
  return ABSOLUTE.test(value) || RELATIVE_WITH_FOLDER.test(value)
}

function normalKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '')
}

function stringsUnder(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value.trim()] : []
  if (!Array.isArray(value)) return []
  return value.flatMap((item) => {
    if (typeof item === 'string') return item.trim() ? [item.trim()] : []
    if (item !== null && typeof item === 'object') return Object.entries(item as Record<string, unknown>).filter(([key]) => FILE_KEYS.has(normalKey(key))).flatMap(([, inner]) => stringsUnder(inner))
    return []
  })
}

/** The files a call's input names (in the order found; empty when it names none). */
export function pathsNamedBy(input: unknown): string[] {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return []
  const entries = Object.entries(input as Record<string, unknown>)
  const byKey = entries.filter(([key]) => FILE_KEYS.has(normalKey(key))).flatMap(([key, value]) => stringsUnder(value).filter((text) => normalKey(key) !== 'file' || looksLikePath(text) || FILE_NAME_LIKE.test(text)))
  if (byKey.length > 0) return [...new Set(byKey)]
  return [...new Set(entries.flatMap(([key, value]) => (!FOLDER_KEYS.has(normalKey(key)) && typeof value === 'string' && looksLikePath(value.trim()) ? [value.trim()] : [])))]
}
