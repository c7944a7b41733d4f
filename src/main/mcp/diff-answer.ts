import type { FileDiffSchema } from '../../shared/contract'
import type { z } from 'zod'
import { TOO_MANY_CHANGES } from '../journal/line-diff/bounds.mts'

type FileDiff = z.infer<typeof FileDiffSchema>

/**
 * How much of a patch the `diff` tool's answer carries, in its text and in its structured part
 * alike: a model's context is the budget, and one rewritten lockfile once made a 3.8 MB answer.
 */
export const MAX_MCP_PATCH_CHARS = 40_000

/** A patch cut after its last whole line within `max` characters, with the count of lines left out. */
export function capPatchLines(patch: string, max: number = MAX_MCP_PATCH_CHARS): { patch: string; omittedLines: number } {
  if (patch.length <= max) return { patch, omittedLines: 0 }
  const end = patch.lastIndexOf('\n', max)
  const kept = end <= 0 ? '' : patch.slice(0, end)
  let omittedLines = 1
  for (let index = patch.indexOf('\n', end + 1); index !== -1; index = patch.indexOf('\n', index + 1)) omittedLines += 1
  return { patch: kept, omittedLines }
}

const size = (version: { size: number; hash: string } | null) => (version ? `${version.size} B, sha256 ${version.hash.slice(0, 12)}` : 'absent')

/**
 * The `diff` tool's answer to one turn's change to one file: its text, and its structured part
 * (the contract's FileDiff, its patch capped as the text's, `omittedLines` and `note` saying what
 * was cut). Past the line diff's bounds it says "too many changes to diff by line" (R27).
 */
export function diffAnswer(diff: FileDiff, path: string, turn: number): { text: string; data: FileDiff & { omittedLines: number; note: string | null } } {
  const header = `--- ${path} (before turn ${turn})\n+++ ${path} (after turn ${turn})`
  const { patch, omittedLines } = capPatchLines(diff.patch)
  const cutNote = omittedLines > 0 ? `Truncated: ${omittedLines} more line${omittedLines === 1 ? '' : 's'} of the patch not shown (\`retrace diff\` prints them all).` : null
  const tooMany = diff.tooManyChanges
    ? `${TOO_MANY_CHANGES[0]?.toUpperCase()}${TOO_MANY_CHANGES.slice(1)} (${size(diff.before)} → ${size(diff.after)}): below, the two versions, every old line removed, then every new line added.`
    : null
  const note = [tooMany, cutNote].filter((part) => part !== null).join(' ') || null
  const text = diff.tooLarge
    ? `${header}\n(too large to diff: ${size(diff.before)} → ${size(diff.after)})`
    : diff.binary
      ? `${header}\nBinary file: ${size(diff.before)} → ${size(diff.after)}`
      : diff.patch
        ? [header, ...(tooMany ? [tooMany] : []), patch, ...(cutNote ? [cutNote] : [])].join('\n')
        : `${path} did not change in turn ${turn}.`
  return { text, data: { ...diff, patch, omittedLines, note } }
}
