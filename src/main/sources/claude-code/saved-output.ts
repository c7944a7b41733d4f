import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { flattenBlocks } from './content'

/** Most of a saved output read back, in bytes: the rest stays in Claude Code's file. */
export const SAVED_OUTPUT_MAX_BYTES = 4 * 1024 * 1024

const SESSION_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i

/**
 * What Claude Code (2.0.60 on) puts in a tool result whose output it moved to
 * `<session>/tool-results/<name>`: a Bash or tool output over its limit becomes
 * `<persisted-output>\nOutput too large (1.1MB). Full output saved to: <path>\n\nPreview (first 2KB): …`,
 * an MCP result over its token limit `Error: result (374,984 characters) exceeds maximum allowed
 * tokens. Output has been saved to <path>.` The path is absolute, may hold spaces (Windows user
 * folders) and ends a sentence in the MCP form; only its file name is taken. Later Bash results
 * also name the file in `toolUseResult.persistedOutputPath`.
 */
const POINTER = /(?:Full output saved to|Output has been saved to):?[^\n]*?[\\/]tool-results[\\/]([A-Za-z0-9_-][A-Za-z0-9._-]{0,200}?)\.?(?=\s|$)/

/**
 * A tool result's text (and the `toolUseResult.persistedOutputPath` a Bash result gives) → the
 * whole output it names, or null when it names none that can be read.
 */
export type SavedOutputReader = (text: string, persistedPath?: string) => string | null

/** A saved output's file name: no folder part, not `.` or `..`. */
const SAVED_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}$/

/**
 * The reader for one history file. The output is looked for only in the session's own
 * `tool-results/` folder (sub-agents and workflow agents share their session's), whatever folder
 * the pointer names: a copied config folder keeps working, and a crafted pointer cannot make
 * Retrace read a file elsewhere. Null for a file outside a session folder layout.
 */
export function savedOutputReader(historyPath: string): SavedOutputReader | null {
  const sessionDir = sessionFolderOf(historyPath)
  if (!sessionDir) return null
  const folder = join(sessionDir, 'tool-results')
  return (text, persistedPath) => {
    // The recorded path is the writing machine's (often a sandbox): only its file name is used.
    const structured = persistedPath?.split(/[\\/]/).pop()
    const name = structured && SAVED_NAME.test(structured) ? structured : text.includes('saved to') ? POINTER.exec(text)?.[1] : undefined
    if (!name) return null
    const bytes = readPlainFile(folder, name)
    return bytes === null ? null : outputText(bytes, join(folder, name))
  }
}

/** `<project>/<uuid>.jsonl` → `<project>/<uuid>`; `<…>/<uuid>/subagents/[workflows/<run>/]agent-x.jsonl` → `<…>/<uuid>`. */
export function sessionFolderOf(historyPath: string): string | null {
  const session = SESSION_FILE.exec(basename(historyPath))?.[1]
  if (session) return join(dirname(historyPath), session)
  let folder = dirname(historyPath)
  for (let level = 0; level < 4; level++) {
    if (basename(folder) === 'subagents') return SESSION_FILE.test(`${basename(dirname(folder))}.jsonl`) ? dirname(folder) : null
    folder = dirname(folder)
  }
  return null
}

/**
 * The first bytes of a plain file in `folder`, without following a link (the folder itself must
 * be a real folder, the file a plain file); null when it is absent or anything else.
 */
function readPlainFile(folder: string, name: string): { data: Buffer; size: number } | null {
  let fd: number | null = null
  try {
    if (!lstatSync(folder).isDirectory()) return null
    const noFollow = constants.O_NOFOLLOW as number | undefined
    // Without O_NOFOLLOW (Windows), a link is refused by looking first.
    if (noFollow === undefined && lstatSync(join(folder, name)).isSymbolicLink()) return null
    fd = openSync(join(folder, name), constants.O_RDONLY | (noFollow ?? 0) | ((constants.O_NONBLOCK as number | undefined) ?? 0))
    const stats = fstatSync(fd)
    if (!stats.isFile()) return null
    const data = Buffer.alloc(Math.min(stats.size, SAVED_OUTPUT_MAX_BYTES))
    const read = readSync(fd, data, 0, data.length, 0)
    return { data: data.subarray(0, read), size: stats.size }
  } catch {
    return null
  } finally {
    if (fd !== null) closeSync(fd)
  }
}

/** The output as text: an MCP result is saved as its JSON array of content blocks. */
function outputText({ data, size }: { data: Buffer; size: number }, path: string): string {
  const text = data.toString('utf8')
  if (size > data.length) return `${text}\n[… cut at ${SAVED_OUTPUT_MAX_BYTES / 1024 / 1024} MB of ${size} bytes; the whole output is in ${path}]`
  if (text.trimStart().startsWith('[')) {
    try {
      const blocks: unknown = JSON.parse(text)
      if (Array.isArray(blocks)) return flattenBlocks(blocks).text
    } catch {
      // Not JSON after all: the text as it is.
    }
  }
  return text
}
