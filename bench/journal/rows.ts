import { formatBytes, formatCount } from '../lib/stats'
import type { ResultRow } from '../lib/table'
import type { DirSize } from './disk'
import type { StorageSizes } from './storage'
import { formatDuration, formatSamples, median, type Paired } from './timing'

// The table rows of the journal benchmark, each with its target from the issue.

/** A timing comparison whose target is "at most `factor` × git's median". */
export function timingRow(measure: string, times: Paired, gitWhat: string, factor: number): ResultRow {
  const ratio = median(times.retrace) / median(times.git)
  return {
    measure,
    retrace: `${formatSamples(times.retrace)}; ${ratio.toFixed(2)}× git`,
    reference: `${formatSamples(times.git)} (${gitWhat})`,
    target: factor === 1 ? '≤ git' : `≤ ${factor}× git`,
    met: ratio <= factor,
    n: `${times.retrace.length}+${times.git.length}`
  }
}

/**
 * Retrace's rewind against git's checkout followed by `sync`. Retrace fsyncs each file it puts
 * back (a rewind that a power cut can half-undo breaks its promise); git never fsyncs
 * checked-out files, so this is the fair comparison for the same guarantee. Same rounds as the
 * row against the plain checkout.
 */
export function durableRewindRow(measure: string, times: { rewind: Paired; gitDurableRewind: number[] }): ResultRow {
  return {
    ...timingRow(measure, { retrace: times.rewind.retrace, git: times.gitDurableRewind }, '`checkout <commit> -- .` then `sync`', 1),
    measure,
    target: '≤ git + sync'
  }
}

/**
 * Retrace's rewind including the removal of the files it replaced, which runs after the rewind
 * has returned (rewind/set-aside.ts), against git's checkout, which frees each file as it goes.
 * No target: the rewind is done when it returns; this shows what the deferred work costs.
 */
export function settledRewindRow(measure: string, times: { rewind: Paired; retraceSettled: number[] }): ResultRow {
  return {
    ...timingRow(measure, { retrace: times.retraceSettled, git: times.rewind.git }, '`checkout <commit> -- .`', 1),
    measure,
    target: '(none set)',
    met: null
  }
}

const size = (dir: DirSize): string => `${formatBytes(dir.bytes)} (du ${formatBytes(dir.diskBytes)})`

export function storageRows(sizes: StorageSizes, edited: number): ResultRow[] {
  const db = sizes.retrace.bytes - sizes.retraceBlobFiles.bytes
  const retrace = `${size(sizes.retrace)}: database ${formatBytes(db)} + ${formatCount(sizes.retraceBlobFiles.files)} gzip blob files ${formatBytes(sizes.retraceBlobFiles.bytes)}`
  const after = `store size after the first capture and the capture of ${formatCount(edited)} edited files`
  return [
    {
      measure: `${after}, vs the shadow .git as a peer leaves it`,
      retrace,
      reference: `${size(sizes.gitLoose)}, ${formatCount(sizes.gitLoose.files)} files (loose objects, no gc)`,
      target: '≤ git',
      met: sizes.retrace.bytes <= sizes.gitLoose.bytes,
      n: '1'
    },
    {
      measure: `${after}, vs the shadow .git after \`git gc\``,
      retrace: `${formatBytes(sizes.retrace.bytes)} (as above)`,
      reference: `${size(sizes.gitPacked)} (packed; \`git gc\` took ${formatDuration(sizes.gcMs)})`,
      target: '(none set)',
      met: null,
      n: '1'
    }
  ]
}
