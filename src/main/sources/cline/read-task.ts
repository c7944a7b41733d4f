import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { SnapshotRead } from '../adapter'
import { HISTORY_FILE, HISTORY_ITEM_FILE, METADATA_FILE, taskIdOf, UI_FILE } from './discover'
import { agentOf } from './roots'
import { withRestoreNotes, withTaskCheckpoints } from './task-checkpoints'
import { stateParents } from './state-parents'
import { parentLink } from './task-parent'
import { taskRecords } from './task-records'
import { isObject, readUiMessages } from './ui-messages'

/**
 * A task folder read whole, read-only: `api_conversation_history.json` is the transcript (a task
 * whose history is unreadable is one problem, not a session), `ui_messages.json` gives usage and
 * cost, `task_metadata.json` the model when the UI names none.
 */
export function readTaskFolder(dir: string): SnapshotRead {
  const taskId = taskIdOf(dir)
  const history = readJson(join(dir, HISTORY_FILE))
  if (!history.ok) return { sessions: [], problems: [`${taskId}/${HISTORY_FILE}: ${history.error}; the task is not imported`] }
  const ui = readJson(join(dir, UI_FILE))
  const facts = readUiMessages(ui.ok ? ui.value : [])
  if (!ui.ok && ui.error !== 'missing') facts.problems.unshift(`${UI_FILE}: ${ui.error}; usage and cost not read`)
  const metadata = readJson(join(dir, METADATA_FILE))
  const built = taskRecords({ taskId, history: history.value, ui: facts, metadataModel: metadata.ok ? lastModel(metadata.value) : undefined })
  const storage = dirname(dirname(dir))
  const agent = agentOf(storage)
  if (built.cwd) {
    const withCheckpoints = withTaskCheckpoints(built.records, facts, dir, storage, built.cwd)
    built.records = withCheckpoints.records
    built.problems.push(...withCheckpoints.problems)
  }
  built.records = withRestoreNotes(built.records, facts.restores, agent, taskId)
  const meta = built.records[0]
  if (meta?.kind === 'session-meta' && meta.title && agent !== 'Cline') meta.title = `${meta.title} (${agent})`
  const parent = meta?.kind === 'session-meta' ? parentLink(dir, built.records) : null
  if (meta?.kind === 'session-meta' && parent) meta.parent = parent
  const fingerprint = createHash('sha256').update(JSON.stringify(built.records)).digest('hex')
  return {
    sessions: [{ key: taskId, fingerprint, forkedFrom: null, startedAt: built.startedAt, records: built.records }],
    problems: built.problems.map((problem) => `${taskId}/${problem}`)
  }
}

/**
 * A task folder with, for a Roo Code or Kilo Code task without `history_item.json`, the parent
 * task that VS Code's state database names (read once per import, through the foreign-database
 * reader).
 */
export async function readTask(dir: string): Promise<SnapshotRead> {
  const read = readTaskFolder(dir)
  const session = read.sessions[0]
  const meta = session?.records[0]
  if (!session || meta?.kind !== 'session-meta' || existsSync(join(dir, HISTORY_ITEM_FILE))) return read
  const state = await stateParents(dirname(dirname(dir)))
  if (state.problem) read.problems.push(state.problem)
  const parentId = state.parents.get(taskIdOf(dir))
  const link = parentId ? parentLink(dir, session.records, parentId) : null
  if (!link) return read
  meta.parent = link
  session.fingerprint = createHash('sha256').update(JSON.stringify(session.records)).digest('hex')
  return read
}

/** `model_usage[]` entries `{ model_id, model_provider_id, mode, ts }`: the latest one's model. */
function lastModel(metadata: unknown): string | undefined {
  const usage = isObject(metadata) && Array.isArray(metadata.model_usage) ? metadata.model_usage : []
  const last: unknown = usage[usage.length - 1]
  return isObject(last) && typeof last.model_id === 'string' ? last.model_id : undefined
}

type JsonRead = { ok: true; value: unknown } | { ok: false; error: string }

/** Past this a file is not read (parsing it whole would take the import's memory): reported instead. */
export const MAX_JSON_BYTES = 256 * 1024 * 1024

function readJson(path: string): JsonRead {
  let text: string
  try {
    const size = statSync(path).size
    if (size > MAX_JSON_BYTES) return { ok: false, error: `${Math.round(size / 1024 / 1024)} MB, more than Retrace reads whole (${MAX_JSON_BYTES / 1024 / 1024} MB)` }
    text = readFileSync(path, 'utf8')
  } catch {
    return { ok: false, error: 'missing' }
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch (error) {
    return { ok: false, error: `not valid JSON (${error instanceof Error ? error.message : String(error)})` }
  }
}
