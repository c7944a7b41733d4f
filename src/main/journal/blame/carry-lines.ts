import { diffArrays } from 'diff'

/**
 * Past this many edits between two versions the line diff gives up (jsdiff's `maxEditLength`)
 * and the new version's lines all count as written by its writer: a version that rewrote
 * most of a 5,000-line file would otherwise cost seconds of Myers diff for little insight.
 */
export const MAX_EDIT_LENGTH = 4000

/** The lines of a text: a final newline ends the last line; it does not start an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return []
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n')
}

/**
 * Each line of `next` with the origin it keeps: a line the diff matches to one of `previous`
 * keeps that line's origin, a line it adds gets `writer`. Common head and tail are matched
 * first, so the diff only looks at the middle (where an agent's scattered edits are).
 */
export function carryOrigins(previous: readonly string[], previousOrigins: readonly number[], next: readonly string[], writer: number): number[] {
  const origins = new Array<number>(next.length)
  let head = 0
  const shortest = Math.min(previous.length, next.length)
  while (head < shortest && previous[head] === next[head]) {
    origins[head] = previousOrigins[head] ?? writer
    head += 1
  }
  let tail = 0
  while (tail < shortest - head && previous[previous.length - 1 - tail] === next[next.length - 1 - tail]) {
    origins[next.length - 1 - tail] = previousOrigins[previous.length - 1 - tail] ?? writer
    tail += 1
  }
  const oldMiddle = previous.slice(head, previous.length - tail)
  const newMiddle = next.slice(head, next.length - tail)
  if (newMiddle.length === 0) return origins
  const parts = oldMiddle.length === 0 ? undefined : diffArrays(oldMiddle, newMiddle, { maxEditLength: MAX_EDIT_LENGTH })
  if (!parts) {
    for (let i = 0; i < newMiddle.length; i += 1) origins[head + i] = writer
    return origins
  }
  let oldIndex = head
  let newIndex = head
  for (const part of parts) {
    const count = part.count ?? part.value.length
    if (part.removed) {
      oldIndex += count
    } else if (part.added) {
      for (let i = 0; i < count; i += 1) origins[newIndex + i] = writer
      newIndex += count
    } else {
      for (let i = 0; i < count; i += 1) origins[newIndex + i] = previousOrigins[oldIndex + i] ?? writer
      oldIndex += count
      newIndex += count
    }
  }
  return origins
}

/** Consecutive lines with one origin, as runs (`start` counts from 1). */
export function toRuns(origins: readonly number[]): { start: number; count: number; origin: number }[] {
  const runs: { start: number; count: number; origin: number }[] = []
  for (let i = 0; i < origins.length; i += 1) {
    const origin = origins[i] ?? 0
    const last = runs.at(-1)
    if (last && last.origin === origin) last.count += 1
    else runs.push({ start: i + 1, count: 1, origin })
  }
  return runs
}
