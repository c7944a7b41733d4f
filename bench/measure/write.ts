import { formatCount } from '../lib/stats'
import type { ResultRow } from '../lib/table'
import type { StoreBuild } from '../generate/build'

const TARGET_RATIO = 0.5

/**
 * Measure 1: message rows per second through the recorder against bare prepared INSERTs of the
 * same rows (same batches, interleaved; same schema and FTS triggers; separate fresh databases).
 */
export function writeRows(build: StoreBuild, batchSize: number): ResultRow[] {
  const { recorder, reference } = build.sample
  if (recorder.messages !== reference.messages) {
    throw new Error(`recorder sample (${recorder.messages}) and reference (${reference.messages}) wrote different rows`)
  }
  const recorderRate = rate(recorder.messages, recorder.writeMs)
  const bareRate = rate(reference.messages, reference.writeMs)
  const ratio = recorderRate / bareRate
  return [
    {
      measure: `1. write throughput, first ${formatCount(reference.messages)} messages, ${formatCount(batchSize)} per transaction`,
      retrace: `${formatCount(recorderRate)} msg/s (${(ratio * 100).toFixed(0)}% of reference)`,
      reference: `${formatCount(bareRate)} msg/s (bare prepared INSERT per row, same batches interleaved, own fresh DB)`,
      target: `≥ ${TARGET_RATIO * 100}% of reference`,
      met: ratio >= TARGET_RATIO,
      n: '1'
    },
    {
      measure: `1b. recorder, whole store (${formatCount(build.total.messages)} messages)`,
      retrace: `${formatCount(rate(build.total.messages, build.total.writeMs))} msg/s (${(build.total.writeMs / 1000).toFixed(0)} s)`,
      reference: '— (not written bare; see 1)',
      target: '—',
      met: null,
      n: '1'
    }
  ]
}

function rate(messages: number, ms: number): number {
  return (messages / ms) * 1000
}
