import type { FileEditRecord } from '../records'

/** A SEARCH/REPLACE block of an answer, waiting for Aider to say it applied it. */
export interface PendingEdit {
  offset: number
  path: string
  search: string
  replace: string
}

/**
 * A block as a file edit: the whole file when Aider created it from an empty SEARCH, else the
 * SEARCH lines removed and the REPLACE lines added, as one hunk (an empty SEARCH appends, as in
 * Aider's `do_replace`). The importer applies the hunk to the content it knows of the file.
 */
export function blockEdit(edit: PendingEdit, createsFile: boolean): FileEditRecord {
  const record: FileEditRecord = { kind: 'file-edit', offset: edit.offset, toolCallId: null, path: edit.path }
  if (createsFile && edit.search.trim() === '') {
    record.before = null
    record.after = edit.replace
    return record
  }
  record.patch = [...hunkLines(edit.search, '-'), ...hunkLines(edit.replace, '+')].join('\n') + '\n'
  return record
}

function hunkLines(text: string, marker: string): string[] {
  if (text === '') return []
  return text.replace(/\r?\n$/, '').split(/\r?\n/).map((line) => marker + line)
}

/** Paths as Aider prints them and as the answer wrote them, compared alike. */
export function samePath(path: string): string {
  return path.trim().replace(/\\/g, '/').replace(/^\.\//, '')
}
