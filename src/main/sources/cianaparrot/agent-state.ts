import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Cron } from 'croner'
import { readJsonFile, type Deployment } from './deployment'

/** One scheduled task (seed 000, "Scheduled Tasks"), with when it runs next. */
export interface ScheduledTask {
  id: string
  prompt: string
  type: 'cron' | 'interval' | 'once'
  value: string
  channel: string | null
  chatId: string | null
  createdAt: string | null
  lastRun: string | null
  active: boolean
  /** ISO time of the next run from `now` (before `now`: overdue); null when it will not run again (inactive, a past one-shot) or cannot be computed. */
  nextRun: string | null
  /** Why the next run could not be computed (a bad cron expression…). */
  problem: string | null
}

export interface CianaParrotState {
  memoryFiles: { name: string; text: string | null }[]
  /** `session_counters.json`: resets per chat; `behind` when the checkpoints hold a later `_s{N}` (the router would sync it at start-up). */
  sessionCounters: { baseKey: string; counter: number; highestInCheckpoints: number | null; behind: boolean }[]
  scheduledTasks: ScheduledTask[]
  /** `cc_user_states.json`: per user, the Claude Code mode state (mode, project, session, model…). */
  claudeCodeUsers: { userId: string; state: Record<string, unknown> }[]
  problems: string[]
}

const MEMORY_FILES = ['IDENTITY.md', 'AGENT.md', 'MEMORY.md']
const TASK_TYPES = ['cron', 'interval', 'once'] as const

/**
 * What a CianaParrot deployment knows besides its conversations, for the workspace's "Agent
 * state" panel: the memory files the agent loads at start-up, the session counters (checked
 * against the threads), the scheduled tasks with their next runs, and the Claude Code user states.
 * `threadIds` are the checkpoint database's threads (for the counters' sync check).
 */
export function readCianaParrotState(deployment: Deployment, threadIds: readonly string[], now = new Date()): CianaParrotState {
  const problems: string[] = []
  const memoryFiles = MEMORY_FILES.map((name) => ({ name, text: readText(join(deployment.root, 'workspace', name)) }))

  const highest = new Map<string, number>()
  for (const threadId of threadIds) {
    const reset = /^(.+)_s(\d+)$/.exec(threadId)
    if (reset?.[1]) highest.set(reset[1], Math.max(highest.get(reset[1]) ?? 0, Number(reset[2])))
  }
  const counters = objectFile(join(deployment.data, 'session_counters.json'), problems)
  const sessionCounters = Object.entries(counters ?? {}).flatMap(([baseKey, counter]) => {
    if (typeof counter !== 'number') {
      problems.push(`session_counters.json: the counter of ${baseKey} is not a number`)
      return []
    }
    const inCheckpoints = highest.get(baseKey) ?? null
    return [{ baseKey, counter, highestInCheckpoints: inCheckpoints, behind: inCheckpoints !== null && inCheckpoints > counter }]
  })

  const scheduledTasks = readScheduledTasks(deployment, now, problems)

  const users = objectFile(join(deployment.data, 'cc_user_states.json'), problems)
  const claudeCodeUsers = Object.entries(users ?? {}).map(([userId, state]) => ({ userId, state: state !== null && typeof state === 'object' ? (state as Record<string, unknown>) : {} }))
  return { memoryFiles, sessionCounters, scheduledTasks, claudeCodeUsers, problems }
}

/** `data/scheduled_tasks.json` with each task's next run; what cannot be read goes to `problems`. */
export function readScheduledTasks(deployment: Deployment, now: Date, problems: string[]): ScheduledTask[] {
  const file = readJsonFile(join(deployment.data, 'scheduled_tasks.json'))
  if (!file) return []
  if ('problem' in file) {
    problems.push(file.problem)
    return []
  }
  if (!Array.isArray(file.value)) {
    problems.push('scheduled_tasks.json is not a list of tasks')
    return []
  }
  return (file.value as unknown[]).flatMap((raw, index) => scheduledTask(raw, index, now, problems))
}

function scheduledTask(raw: unknown, index: number, now: Date, problems: string[]): ScheduledTask[] {
  if (raw === null || typeof raw !== 'object') {
    problems.push(`scheduled_tasks.json: entry ${index + 1} is not a task object`)
    return []
  }
  const task = raw as Record<string, unknown>
  const text = (key: string) => (typeof task[key] === 'string' ? task[key] : null)
  const type = TASK_TYPES.find((known) => known === task.type)
  if (!type || typeof task.id !== 'string' || typeof task.value !== 'string') {
    problems.push(`scheduled_tasks.json: entry ${index + 1} lacks an id, a type (cron, interval or once) or a value`)
    return []
  }
  const base = {
    id: task.id,
    prompt: text('prompt') ?? '',
    type,
    value: task.value,
    channel: text('channel'),
    chatId: text('chat_id'),
    createdAt: text('created_at'),
    lastRun: text('last_run'),
    active: task.active !== false
  }
  const { nextRun, problem } = base.active ? nextRunOf(base, now) : { nextRun: null, problem: null }
  if (problem) problems.push(`scheduled task ${base.id}: ${problem}`)
  return [{ ...base, nextRun, problem }]
}

/** As CianaParrot's scheduler decides (seed 000, "Task Types"): croniter for cron (UTC), elapsed seconds for an interval, a target time for once. */
function nextRunOf(task: { type: ScheduledTask['type']; value: string; lastRun: string | null; createdAt: string | null }, now: Date): { nextRun: string | null; problem: string | null } {
  try {
    if (task.type === 'cron') {
      const next = new Cron(task.value, { timezone: 'UTC', paused: true }).nextRun(now)
      return { nextRun: next ? next.toISOString() : null, problem: null }
    }
    if (task.type === 'interval') {
      const seconds = Number(task.value)
      if (!Number.isFinite(seconds) || seconds <= 0) return { nextRun: null, problem: `interval "${task.value}" is not a number of seconds` }
      const from = Date.parse(task.lastRun ?? task.createdAt ?? '')
      // Never run yet and no creation time: due now. A time already past means overdue (the scheduler is not running).
      const next = Number.isFinite(from) ? from + seconds * 1000 : now.getTime()
      return { nextRun: new Date(next).toISOString(), problem: null }
    }
    const target = Date.parse(task.value)
    if (!Number.isFinite(target)) return { nextRun: null, problem: `"${task.value}" is not a date and time` }
    return { nextRun: target >= now.getTime() || !task.lastRun ? new Date(target).toISOString() : null, problem: null }
  } catch (error) {
    return { nextRun: null, problem: `${task.type} "${task.value}" cannot be read (${(error as Error).message})` }
  }
}

function objectFile(path: string, problems: string[]): Record<string, unknown> | null {
  const file = readJsonFile(path)
  if (!file) return null
  if ('problem' in file) {
    problems.push(file.problem)
    return null
  }
  if (file.value === null || typeof file.value !== 'object' || Array.isArray(file.value)) {
    problems.push(`${path} is not a JSON object`)
    return null
  }
  return file.value as Record<string, unknown>
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}
