import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { parseAgentTime } from './agent-time'
import { isRecord } from '../plain-data'

/**
 * The per-goal checkpoint files of one session (seed ch. 6 › Checkpoints):
 * `checkpoints/<session-id>/<goal-id>.pre.json | .post.json | .supervision.json`. Each field is
 * kept only when it has the documented type; a field of another type is left out and reported,
 * never replaced by an invented value.
 */

/** "Commitment, scope, approach, predictions, assumptions" (`interpretation` is the commitment). */
export interface PreCheckpoint {
  stepId?: string
  timestamp?: string
  goal?: string
  interpretation?: string
  scope?: { inBounds?: string[]; outBounds?: string[] }
  approach?: string
  predictions?: string[]
  assumptions?: string[]
}

/** "Tools used, output, self-assessment". */
export interface PostCheckpoint {
  stepId?: string
  timestamp?: string
  toolsUsed?: string[]
  output?: string
  commitmentMet?: string
  scopeChanged?: string
  concerns?: string[]
}

/** "Verdict, reasoning, signature (if supervised)"; `correction` only with REORIENT. */
export interface SupervisionRecord {
  stepId?: string
  sessionId?: string
  timestamp?: string
  verdict?: string
  reasoning?: string
  correction?: string
  signature?: string
}

export interface GoalCheckpoints {
  pre?: PreCheckpoint
  post?: PostCheckpoint
  supervision?: SupervisionRecord
}

export type CheckpointPhase = keyof GoalCheckpoints

export interface SessionCheckpoints {
  /** False when the session's folder is gone (retention cleanup removes it whole) or never existed. */
  folderExists: boolean
  /** Goal id → what its files hold (a file that could not be read at all is absent). */
  goals: Map<string, GoalCheckpoints>
  /** Names of the checkpoint files in the folder, readable or not. */
  present: Set<string>
  problems: string[]
}

/** Checkpoint files are a few KB; anything far larger is not one the agent wrote. */
const MAX_FILE_BYTES = 4 * 1024 * 1024
const FILE_NAME = /^(.+)\.(pre|post|supervision)\.json$/

/** Read-only: lists the folder and reads its files; missing folder = no checkpoints, not a problem. */
export function readSessionCheckpoints(home: string, sessionId: string): SessionCheckpoints {
  const result: SessionCheckpoints = { folderExists: false, goals: new Map(), present: new Set(), problems: [] }
  // The folder name comes from the database: never let it point outside checkpoints/.
  if (!/^[A-Za-z0-9._-]+$/.test(sessionId) || sessionId === '.' || sessionId === '..') {
    if (sessionId) result.problems.push(`session id ${JSON.stringify(sessionId)} is not a folder name: its checkpoint files were not looked for`)
    return result
  }
  const folder = join(home, 'checkpoints', sessionId)
  let names: string[]
  try {
    if (!statSync(folder).isDirectory()) return result
    names = readdirSync(folder).sort()
  } catch {
    return result
  }
  result.folderExists = true
  for (const name of names) {
    const match = FILE_NAME.exec(name)
    if (!match) continue
    const [, goal = '', phase = 'pre'] = match
    result.present.add(name)
    const where = `checkpoints/${sessionId}/${name}`
    const value = readJson(join(folder, name), where, result.problems)
    if (value === undefined) continue
    const wrong: string[] = []
    const entry = result.goals.get(goal) ?? {}
    if (phase === 'pre') entry.pre = preOf(value, wrong)
    else if (phase === 'post') entry.post = postOf(value, wrong)
    else entry.supervision = supervisionOf(value, wrong)
    result.goals.set(goal, entry)
    if (wrong.length > 0) result.problems.push(`${where}: fields not of the documented type were left out: ${wrong.join(', ')}`)
  }
  return result
}

function readJson(path: string, where: string, problems: string[]): Record<string, unknown> | undefined {
  try {
    if (statSync(path).size > MAX_FILE_BYTES) {
      problems.push(`${where} is larger than ${MAX_FILE_BYTES} bytes: not read`)
      return undefined
    }
    const value = JSON.parse(readFileSync(path, 'utf8')) as unknown
    if (!isRecord(value)) {
      problems.push(`${where} is not a JSON object: not shown`)
      return undefined
    }
    return value
  } catch (error) {
    problems.push(`${where} is not valid JSON (${(error as Error).message}): not shown`)
    return undefined
  }
}

function preOf(value: Record<string, unknown>, wrong: string[]): PreCheckpoint {
  const field = fields(value, wrong)
  const scope = value.scope
  let scopeOut: PreCheckpoint['scope']
  if (scope !== undefined) {
    if (isRecord(scope)) {
      const inner = fields(scope, wrong, 'scope.')
      scopeOut = { inBounds: inner.strings('in_bounds'), outBounds: inner.strings('out_bounds') }
    } else wrong.push(`scope (${kind(scope)}, expected an object of in_bounds and out_bounds)`)
  }
  return prune({
    stepId: field.string('step_id'),
    timestamp: field.time('timestamp'),
    goal: field.string('goal'),
    interpretation: field.string('interpretation'),
    scope: scopeOut ? prune(scopeOut) : undefined,
    approach: field.string('approach'),
    predictions: field.strings('predictions'),
    assumptions: field.strings('assumptions')
  })
}

function postOf(value: Record<string, unknown>, wrong: string[]): PostCheckpoint {
  const field = fields(value, wrong)
  return prune({
    stepId: field.string('step_id'),
    timestamp: field.time('timestamp'),
    toolsUsed: field.strings('tools_used'),
    output: field.string('output'),
    commitmentMet: field.string('commitment_met'),
    scopeChanged: field.string('scope_changed'),
    concerns: field.strings('concerns')
  })
}

function supervisionOf(value: Record<string, unknown>, wrong: string[]): SupervisionRecord {
  const field = fields(value, wrong)
  return prune({
    stepId: field.string('step_id'),
    sessionId: field.string('session_id'),
    timestamp: field.time('timestamp'),
    verdict: field.string('verdict'),
    reasoning: field.string('reasoning'),
    correction: field.string('correction'),
    signature: field.string('signature')
  })
}

/** Typed getters over one JSON object: absent → undefined; wrong type → undefined, and named in `wrong`. */
function fields(value: Record<string, unknown>, wrong: string[], prefix = '') {
  const bad = (key: string, got: unknown, expected: string) => {
    wrong.push(`${prefix}${key} (${kind(got)}, expected ${expected})`)
    return undefined
  }
  return {
    string(key: string): string | undefined {
      const got = value[key]
      if (got === undefined) return undefined
      return typeof got === 'string' ? got : bad(key, got, 'text')
    },
    strings(key: string): string[] | undefined {
      const got = value[key]
      if (got === undefined) return undefined
      return Array.isArray(got) && got.every((item) => typeof item === 'string') ? got : bad(key, got, 'a list of texts')
    },
    /** RFC 3339 text: "yesterday" is text, but not a time. */
    time(key: string): string | undefined {
      const got = value[key]
      if (got === undefined) return undefined
      return typeof got === 'string' && parseAgentTime(got) !== undefined ? got : bad(key, got, 'an RFC 3339 time')
    }
  }
}

function kind(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'string') return `text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}


/** Drop undefined fields, so a file's content compares and prints as what it holds. */
function prune<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
}
