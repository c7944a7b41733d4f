import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodeProjectFolder } from '../claude-code/project-folder'
import { FIXTURES } from './claude-home'
import { SPOTTER_CWD, SPOTTER_SESSION } from './session-copies'

const MB = 1024 * 1024

/** The real spotter session's lines, with its own session id replaced by `id`. */
function spotterLines(id: string): string[] {
  return readFileSync(join(FIXTURES, `claude-code/spotter/projects-dir/${SPOTTER_SESSION}.jsonl`), 'utf8').replaceAll(SPOTTER_SESSION, id).split('\n')
}

/** The session id of copy `copy` (two digits at the end of the spotter's own). */
export function copyId(copy: number): string {
  return `${SPOTTER_SESSION.slice(0, -2)}${String(copy).padStart(2, '0')}`
}

/**
 * A Bash result line of the real session grown to about `megabytes` MB of many small values
 * (`toolUseResult.items`: objects of three fields each, as a large structured tool result holds):
 * the shape that costs a parser most memory per byte, and the one that aborted the process in a
 * parse thread with a heap of 64 MB ("Reached heap limit").
 */
export function manyValuesLine(id: string, megabytes: number, uuid = 'large-result'): string {
  const result = JSON.parse(spotterLines(id)[24] ?? '') as Record<string, unknown> & { toolUseResult: Record<string, unknown> }
  const items: { type: string; text: string; n: number }[] = []
  let bytes = 0
  while (bytes < megabytes * MB) {
    const item = { type: 'text', text: `line ${items.length} of the listing …`, n: items.length }
    items.push(item)
    bytes += JSON.stringify(item).length + 1
  }
  return JSON.stringify({ ...result, uuid, toolUseResult: { ...result.toolUseResult, items } })
}

/**
 * `copies` copies of the real spotter session under `root` (a CLAUDE_CONFIG_DIR), each a session
 * of its own; copy `large.copy` has `large.line` (one line, of a few tens of MB) after its first
 * 25 lines, then the rest of its lines. Returns the paths, by copy.
 */
export function writeSessionsWithLargeLine(root: string, copies: number, large: { copy: number; line: (id: string) => string }): string[] {
  const folder = join(root, 'projects', encodeProjectFolder(SPOTTER_CWD))
  mkdirSync(folder, { recursive: true })
  return Array.from({ length: copies }, (_, copy) => {
    const id = copyId(copy)
    const lines = spotterLines(id)
    const path = join(folder, `${id}.jsonl`)
    const text = copy === large.copy ? [...lines.slice(0, 25), large.line(id), ...lines.slice(25)].join('\n') : lines.join('\n')
    writeFileSync(path, text)
    return path
  })
}
