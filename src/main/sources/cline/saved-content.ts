import { posix } from 'node:path'
import { applyHunks } from '../apply-hunks'
import { searchReplaceHunks } from './file-edits'

/**
 * What Cline 3.x tells the model of a file it wrote (`formatResponse.fileEditWithoutUserChanges` and
 * `fileEditWithUserChanges`, src/core/prompts/responses.ts): "The content was successfully saved
 * to …" or "… has been successfully saved to …", then the file as saved, after the formatter and
 * the user's own edits in the diff view: `<final_file_content path="…">\n…\n</final_file_content>`.
 */
export function savedContentOf(result: string): string | null {
  const open = /<final_file_content path="[^"\n]*">\n/.exec(result)
  if (!open) return null
  const start = open.index + open[0].length
  const end = result.lastIndexOf('\n</final_file_content>')
  // An empty file: the template's two newlines are adjacent.
  if (end === start - 1) return ''
  return end < start ? null : result.slice(start, end)
}

/** One file of an `apply_patch` result: its content as saved, or null when the patch deleted it. */
export interface PatchedFile {
  path: string
  after: string | null
}

/**
 * The files an `apply_patch` result names (Cline 3.x `ApplyPatchHandler`): after "Successfully
 * applied patch to the following files:", a `<final_file_content path="…">` block per file
 * changed, `<path>: [deleted]` per file removed.
 */
export function patchedFilesOf(result: string): PatchedFile[] {
  const files: PatchedFile[] = []
  const pattern = /<final_file_content path="([^"\n]*)">\n([\s\S]*?)\n<\/final_file_content>|^(.+): \[deleted\]$/gm
  for (let match = pattern.exec(result); match; match = pattern.exec(result)) {
    if (match[1] !== undefined) files.push({ path: match[1], after: match[2] ?? '' })
    else if (match[3] !== undefined) files.push({ path: match[3].trim(), after: null })
  }
  return files
}

/**
 * The file before a `replace_in_file`, from the file as saved: each REPLACE text put back as its
 * SEARCH text, in order. Undefined when a block cannot be undone exactly (a block that only deleted
 * lines has no text to find; a formatter or the user changed the replaced lines).
 */
export function undoSearchReplace(saved: string, diff: string): string | undefined {
  const hunks = searchReplaceHunks(diff)
  if (!hunks) return undefined
  const reversed: string[] = []
  for (const hunk of hunks.split(/^@@$/m).filter((text) => text.trim() !== '')) {
    const lines = hunk.split('\n').filter((line) => line !== '')
    const removed = lines.filter((line) => line.startsWith('-')).map((line) => line.slice(1))
    const added = lines.filter((line) => line.startsWith('+')).map((line) => line.slice(1))
    if (added.length === 0) return undefined
    reversed.push(['@@', ...added.map((line) => `-${line}`), ...removed.map((line) => `+${line}`)].join('\n'))
  }
  const before = applyHunks(saved, reversed.join('\n'))
  if (before === null) return undefined
  // Undone and redone, the blocks must give back the saved file: a loose match would be a guess.
  return applyHunks(before, hunks) === saved ? before : undefined
}

/** Files `read_file` turns into text rather than giving as they are (Cline's `extractTextFromFile`). */
const CONVERTED = /\.(?:pdf|docx|ipynb|xlsx)$/i

/**
 * The file as `read_file` gave it to the model: the result text after its `[read_file for '…']
 * Result:` line, which Cline 3.x fills with the file's text as it is (undefined for a converted
 * document, or when the header is not there).
 */
export function readContentOf(result: string, path: string): string | undefined {
  if (CONVERTED.test(path)) return undefined
  const header = /^\s*\[read_file for '[^\n]*'\] Result:\n/.exec(result)
  return header ? result.slice(header[0].length) : undefined
}

/**
 * One key per file for paths Cline names differently: the UI row's workspace-relative
 * `BeginTurn.cs`, the call's absolute `/w/BeginTurn.cs`, Windows' `c:\w\BeginTurn.cs`.
 */
export function fileKey(cwd: string | undefined, path: string): string {
  const slashed = path.replace(/\\/g, '/')
  const absolute = slashed.startsWith('/') || /^[a-z]:\//i.test(slashed)
  const joined = absolute || !cwd ? slashed : `${cwd.replace(/\\/g, '/').replace(/\/+$/, '')}/${slashed}`
  const normal = posix.normalize(joined)
  return /^[a-z]:\//i.test(normal) ? normal.toLowerCase() : normal
}
