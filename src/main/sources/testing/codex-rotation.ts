import { copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

/**
 * Rotate a Codex rollout the way Codex's writer does (codex-rs/thread-store/src/local/
 * segment_writer.rs @ 848575dc, `rotate_thread_segment_with_handle`):
 * 1. copy the live rollout whole to `<CODEX_HOME>/<ROTATED_ROLLOUT_SEGMENTS_SUBDIR>/<thread id>/
 *    <its segment_id, or "initial">/<its file name>` (`rotated_segment_path`);
 * 2. write the successor to a temporary file in the rollout's folder: a `session_meta` line of the
 *    same thread (RolloutRecorderParams::CreateAtPath with the old meta's timestamp; a new
 *    segment id), then a `rollout_reference` line (RolloutItem::RolloutReference: serde tag
 *    `type`, content `payload`, fields as segment_writer.rs fills them, Segment boundary:
 *    `nth_user_message` null);
 * 3. rename it over the rollout (`persist`: another inode, the old content only in the copy).
 * The constant's value was not in the indexed source: `rotated_rollout_segments` stands in for it
 * (Retrace follows the reference's absolute path and does not depend on the folder's name).
 */
export const ROTATED_SEGMENTS_FOLDER = 'rotated_rollout_segments'

export function rotateRollout(codexHome: string, rollout: string, newSegmentId: string, at = '2026-02-23T14:00:00.000Z'): string {
  const [metaLine = ''] = readFileSync(rollout, 'utf8').split('\n', 1)
  const meta = JSON.parse(metaLine) as { payload: Record<string, unknown> & { id: string; segment_id?: string } }
  const thread = meta.payload.id
  const segmentId = meta.payload.segment_id ?? null
  const segment = join(codexHome, ROTATED_SEGMENTS_FOLDER, thread, segmentId ?? 'initial', basename(rollout))
  mkdirSync(dirname(segment), { recursive: true })
  copyFileSync(rollout, segment)
  const rolloutTimestamp = /^rollout-(.+)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/.exec(basename(rollout))?.[1] ?? null
  const successor = [
    { timestamp: at, type: 'session_meta', payload: { ...meta.payload, segment_id: newSegmentId } },
    {
      timestamp: at,
      type: 'rollout_reference',
      payload: { rollout_path: segment, thread_id: thread, rollout_timestamp: rolloutTimestamp, segment_id: segmentId, max_depth: 1, nth_user_message: null, compacted_replacement_history_filter_texts: null }
    }
  ]
  const staged = join(dirname(rollout), `.tmp${newSegmentId.slice(0, 8)}`)
  writeFileSync(staged, successor.map((line) => `${JSON.stringify(line)}\n`).join(''))
  renameSync(staged, rollout)
  return segment
}

/**
 * An earlier form of the same rotation (codex-rs/thread-store/src/local/live_writer.rs before the
 * immutable copies): the live rollout stays where it is, and a new rollout (RolloutRecorderParams::new:
 * a new file named by the time it starts, same thread id) begins with a `session_meta` and a
 * `rollout_reference` naming the old file (`rollout_path`, `thread_id`, `segment_id`, `max_depth`
 * only, in that version). Returns the new rollout's path.
 */
export function startNextRolloutBeside(rollout: string, newName: string, newSegmentId: string, at = '2026-02-23T14:00:00.000Z'): string {
  const [metaLine = ''] = readFileSync(rollout, 'utf8').split('\n', 1)
  const meta = JSON.parse(metaLine) as { payload: Record<string, unknown> & { id: string; segment_id?: string } }
  const next = join(dirname(rollout), newName)
  const lines = [
    { timestamp: at, type: 'session_meta', payload: { ...meta.payload, timestamp: at, segment_id: newSegmentId } },
    { timestamp: at, type: 'rollout_reference', payload: { rollout_path: rollout, thread_id: meta.payload.id, segment_id: meta.payload.segment_id ?? null, max_depth: 1 } }
  ]
  writeFileSync(next, lines.map((line) => `${JSON.stringify(line)}\n`).join(''))
  return next
}
