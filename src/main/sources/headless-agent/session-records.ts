import { createHash } from 'node:crypto'
import type { SnapshotSession } from '../adapter'
import type { MessageRecord, SourceRecord } from '../records'
import { parseAgentTime, shortTime } from './agent-time'
import type { CheckpointPhase, SessionCheckpoints } from './checkpoint-files'
import { postNote, preNote, supervisionNote } from './checkpoint-notes'
import { FileCalls } from './file-calls'
import type { AgentEvent, AgentSession } from './sessions-db'
import { isRecord } from '../plain-data'

/** The agent's statuses (seed: running, completed, failed); its Go constant spells `complete`. */
const STATUSES: Record<string, 'running' | 'completed' | 'failed'> = { running: 'running', completed: 'completed', complete: 'completed', failed: 'failed' }

/** The event types the agent writes (see fixtures/headless-agent/README.md); others are shown as notes and reported. */
const KNOWN_TYPES = new Set([
  'workflow_start', 'workflow_end', 'step_start', 'step_end', 'goal_start', 'goal_end',
  'system', 'user', 'assistant', 'tool_call', 'tool_result',
  'phase_commit', 'phase_execute', 'phase_reconcile', 'phase_supervise', 'checkpoint',
  'security_block', 'security_static', 'security_triage', 'security_supervisor', 'security_decision'
])

/** A `checkpoint` event's content names the file it wrote: "pre checkpoint saved: greet.pre.json". */
const CHECKPOINT_FILE = /([^\s/\\]+)\.(pre|post|supervision)\.json/

export interface SessionSnapshot {
  session: SnapshotSession
  problems: string[]
}

/**
 * One agent session as a Retrace session. The agent runs a workflow as a sequence of goals, each
 * its own LLM conversation, so each goal is a turn: it opens with a user message stating the goal
 * (the prompt the agent sent for it), followed by that goal's events in id order — the model's
 * replies as assistant messages, tool calls and their results, and the harness's own steps
 * (phases, security checks, checkpoint records, the workflow's start and end) as system notes.
 * What the session row says beyond its events (inputs, final status, result or error) opens and
 * closes the transcript as system notes.
 */
export function sessionSnapshot(agentSession: AgentSession, checkpoints: SessionCheckpoints): SessionSnapshot {
  const builder = new TranscriptBuilder(agentSession, checkpoints)
  const records = builder.build()
  const fingerprint = createHash('sha256').update(JSON.stringify(records)).digest('hex')
  return {
    session: { key: agentSession.row.id, fingerprint, forkedFrom: null, startedAt: builder.startedAt, records },
    problems: builder.problems.map((problem) => `session ${agentSession.row.id}: ${problem}`)
  }
}

class TranscriptBuilder {
  readonly problems: string[] = []
  readonly startedAt: number | undefined
  /** The stored time the start was read from, for the title's wall-clock time. */
  private readonly startText: unknown
  private readonly records: SourceRecord[] = []
  private readonly row: AgentSession['row']
  private readonly events: AgentEvent[]
  private readonly status: 'running' | 'completed' | 'failed' | null
  /** Checkpoint events named files, but the session's folder is gone: the agent's retention cleanup removed it. */
  private readonly expired: boolean
  private currentGoal: string | null = null
  /** `user` events already shown as the message opening their goal's turn. */
  private readonly prompts = new Set<number>()
  /** Tool calls waiting for their result, by goal and tool (a result answers the oldest). */
  private readonly pendingCalls = new Map<string, string[]>()
  /** The last thing the model said in each goal (its answer), to not repeat it at the goal's end. */
  private readonly lastAnswer = new Map<string, string>()
  /** The checkpoint event that last wrote each file: the file holds what that one wrote. */
  private readonly lastWrite = new Map<string, number>()
  private readonly shown = new Set<string>()
  private readonly fileCalls = new FileCalls()
  private lastTime: number | undefined

  constructor(
    agentSession: AgentSession,
    private readonly checkpoints: SessionCheckpoints
  ) {
    this.row = agentSession.row
    this.events = agentSession.events
    const status = STATUSES[this.row.status.trim().toLowerCase()]
    this.status = status ?? null
    if (!status) this.problems.push(`status ${JSON.stringify(this.row.status)} is not one the agent documents (running, completed, failed): shown as unknown`)
    let startedAt = parseAgentTime(this.row.createdAt)
    this.startText = this.row.createdAt
    if (startedAt === undefined) {
      const first = this.events.find((event) => parseAgentTime(event.timestamp) !== undefined)
      startedAt = first ? parseAgentTime(first.timestamp) : undefined
      this.startText = first?.timestamp
      this.problems.push(`created_at ${JSON.stringify(this.row.createdAt)} is not a time: ${startedAt === undefined ? 'its start is unknown' : 'its start is taken from its first event'}`)
    }
    this.startedAt = startedAt
    this.lastTime = startedAt
    this.expired = !checkpoints.folderExists && this.events.some((event) => event.type === 'checkpoint')
    this.events.forEach((event, index) => {
      const file = checkpointFileOf(event)
      if (file) this.lastWrite.set(file.name, index)
    })
  }

  build(): SourceRecord[] {
    this.records.push({ kind: 'session-meta', offset: 0, sessionId: this.row.id, title: this.title(), titleOrigin: 'custom', ...(this.startedAt !== undefined ? { createdAt: this.startedAt } : {}) })
    this.note(0, this.header(), this.startedAt)
    const unknown = new Map<string, number[]>()
    this.events.forEach((event, index) => {
      if (!KNOWN_TYPES.has(event.type)) {
        const ids = unknown.get(event.type) ?? []
        ids.push(event.id)
        unknown.set(event.type, ids)
      }
      this.event(event, index)
    })
    for (const [type, ids] of unknown) {
      const which = ids.length === 1 ? `event ${ids[0]} has` : `${ids.length} events (ids ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}) have`
      this.problems.push(`${which} the unknown type ${JSON.stringify(type)}: shown as ${ids.length === 1 ? 'a note' : 'notes'}`)
    }
    this.records.push(...this.fileCalls.unanswered(this.events.at(-1)?.id ?? 0))
    this.unshownCheckpoints()
    this.note(this.events.at(-1)?.id ?? 0, this.outcome(), this.lastTime, this.status === 'failed')
    return this.records
  }

  /** Workflow name and start (sessions of one workflow differ by when they ran), then what is unusual. */
  private title(): string {
    const parts = [this.row.workflowName.trim().slice(0, 200) || 'workflow', shortTime(this.startText, this.startedAt)]
    if (this.status !== 'completed') parts.push(this.status ?? `status ${this.row.status || 'unknown'}`)
    if (this.expired) parts.push('past retention')
    return parts.join(' · ')
  }

  private header(): string {
    const lines = [`Headless agent workflow ${JSON.stringify(this.row.workflowName)}, session ${this.row.id}`]
    lines.push(`Status: ${this.status ?? `${JSON.stringify(this.row.status)} (unknown)`}`)
    const inputs = decodeJson(this.row.inputs)
    if (inputs.ok && isRecord(inputs.value)) {
      const entries = Object.entries(inputs.value)
      if (entries.length > 0) lines.push('Inputs:', ...entries.map(([key, value]) => `- ${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`))
    } else if (this.row.inputs.trim() && this.row.inputs !== 'null') {
      lines.push(`Inputs (as stored): ${this.row.inputs}`)
      this.problems.push('its inputs are not a JSON object: shown as stored')
    }
    if (this.expired) {
      // Seed ch. 6 › Retention: checkpoints are cleaned up after retention_days; the database rows stay.
      lines.push(
        '',
        `Past retention: its checkpoint folder (checkpoints/${this.row.id}/) is gone, removed by the agent's retention cleanup (or kept elsewhere by a [checkpoints] path setting). Its pre, post and supervision records are not available; its events are.`
      )
    }
    return lines.join('\n')
  }

  private outcome(): string {
    const result = this.row.result.trim() ? `\nResult:\n${this.row.result}` : ''
    const error = this.row.error.trim() ? `\nError: ${this.row.error}` : ''
    switch (this.status) {
      case 'completed':
        return `Workflow completed.${result}${error}`
      case 'failed':
        return `Workflow failed.${error}${result}`
      case 'running': {
        const open = [...this.pendingCalls.values()].reduce((sum, calls) => sum + calls.length, 0)
        const updated = typeof this.row.updatedAt === 'string' || typeof this.row.updatedAt === 'number' ? ` (last update ${String(this.row.updatedAt)})` : ''
        return `Still running when this was read${updated}.${open > 0 ? ` ${open} tool call${open === 1 ? ' has' : 's have'} no result yet.` : ''}${result}${error}`
      }
      default:
        return `Status ${JSON.stringify(this.row.status)}, which the agent does not document.${result}${error}`
    }
  }

  private event(event: AgentEvent, index: number): void {
    const at = parseAgentTime(event.timestamp)
    if (at !== undefined) this.lastTime = at
    const time = this.lastTime
    // An event of a goal no goal_start opened (an interrupted save): the goal still gets its turn.
    if (event.goal && event.goal !== this.currentGoal && event.type !== 'goal_start') this.openGoal(event, index, time)
    const withError = (text: string) => (event.error ? `${text}${text ? '\n' : ''}Error: ${event.error}` : text)
    switch (event.type) {
      case 'goal_start':
        return this.openGoal(event, index, time)
      case 'user':
        if (this.prompts.has(event.id)) return
        // Not a prompt opening a goal: the supervisor's correction fed back into it. The turn is the goal, so a note.
        if (!this.currentGoal) return this.message(event.id, { role: 'user', startsTurn: true, content: event.content }, time)
        return this.note(event.id, event.content, time)
      case 'system':
        return this.note(event.id, event.content, time)
      case 'assistant':
        // An empty reply only carries the tool call that follows it.
        if (!event.content.trim()) return
        this.lastAnswer.set(event.goal, event.content)
        return this.message(event.id, { role: 'assistant', content: event.content }, time)
      case 'tool_call':
        return this.toolCall(event, time)
      case 'tool_result':
        return this.toolResult(event, time)
      case 'checkpoint':
        return this.checkpoint(event, index, time)
      case 'goal_end': {
        const output = event.content && event.content !== this.lastAnswer.get(event.goal) ? `\nOutput:\n${event.content}` : ''
        return this.note(event.id, withError(`Goal ${event.goal} finished.${output}`), time)
      }
      case 'phase_commit':
      case 'phase_execute':
      case 'phase_reconcile':
      case 'phase_supervise':
      case 'workflow_start':
      case 'workflow_end':
      case 'step_start':
      case 'step_end':
        return this.note(event.id, withError(`${event.content || event.type}${duration(event.durationMs)}`), time)
      default:
        if (event.type.startsWith('security_')) {
          return this.note(event.id, withError(`Security check of ${event.tool || 'tool'} output, ${event.content || event.type}${duration(event.durationMs)}`), time)
        }
        return this.note(event.id, withError(`[${event.type}] ${event.content}${duration(event.durationMs)}`), time)
    }
  }

  /** The user message opening a goal's turn: the goal, and the prompt the agent sent the model for it. */
  private openGoal(event: AgentEvent, index: number, time: number | undefined): void {
    // A write of the goal before still without a result belongs to that goal's turn.
    this.records.push(...this.fileCalls.unanswered(event.id))
    const goal = event.goal
    this.currentGoal = goal
    let prompt: AgentEvent | undefined
    for (let i = index; i < this.events.length; i++) {
      const next = this.events[i] as AgentEvent
      if (i > index && next.type === 'goal_start') break
      if (next.type === 'user' && next.goal === goal && !this.prompts.has(next.id)) {
        prompt = next
        break
      }
    }
    if (prompt) this.prompts.add(prompt.id)
    const stated = prompt?.content ?? this.checkpoints.goals.get(goal)?.pre?.goal ?? ''
    this.message(event.id, { role: 'user', startsTurn: true, content: `Goal: ${goal || '(unnamed)'}${stated ? `\n\n${stated}` : ''}` }, time)
  }

  private toolCall(event: AgentEvent, time: number | undefined): void {
    const id = `call-${event.id}`
    const queue = this.pendingCalls.get(callKey(event)) ?? []
    queue.push(id)
    this.pendingCalls.set(callKey(event), queue)
    let input: unknown
    if (event.args.trim() && event.args !== 'null') {
      const decoded = decodeJson(event.args)
      if (decoded.ok) input = decoded.value
      else {
        // Kept as the text the agent stored, so nothing of the call is lost.
        input = event.args
        this.problems.push(`event ${event.id} (tool_call ${event.tool}) has arguments that are not valid JSON (${decoded.error}): kept as raw text`)
      }
    }
    this.message(event.id, { role: 'tool_call', content: '', toolName: event.tool || 'unknown', toolCallId: id, ...(input !== undefined ? { toolInput: input } : {}) }, time)
    this.records.push(...this.fileCalls.call(id, event.tool, input, event.id))
  }

  /** A result answers the oldest open call of the same goal and tool (only security checks come between). */
  private toolResult(event: AgentEvent, time: number | undefined): void {
    const id = this.pendingCalls.get(callKey(event))?.shift()
    // The run time goes on a line of its own after the output (its trailing newlines only dropped there).
    const took = event.durationMs > 0 ? `\n\n(took ${formatMs(event.durationMs)})` : ''
    const content = `${event.error ? `Error: ${event.error}\n\n` : ''}${took ? event.content.replace(/\n+$/, '') : event.content}${took}`
    this.message(event.id, { role: 'tool_result', content, ...(event.tool ? { toolName: event.tool } : {}), ...(id ? { toolCallId: id } : {}), isError: event.error !== '' }, time)
    this.records.push(...this.fileCalls.result(id, event.error, event.id))
  }

  /** The file's content at the event that last wrote it; earlier writes of the same file are only named. */
  private checkpoint(event: AgentEvent, index: number, time: number | undefined): void {
    const file = checkpointFileOf(event)
    if (!file) return this.note(event.id, event.content || 'checkpoint', time)
    if (!this.checkpoints.folderExists) return this.note(event.id, `${event.content} (no longer on disk)`, time)
    if (this.lastWrite.get(file.name) !== index) return this.note(event.id, `${event.content} (written again later: the file holds the later contents)`, time)
    const text = this.checkpointText(file.goal, file.phase, file.name)
    if (text) return this.note(event.id, text, time)
    if (!this.checkpoints.present.has(file.name)) this.problems.push(`event ${event.id} names checkpoints/${this.row.id}/${file.name}, which is missing`)
    this.note(event.id, `${event.content} (the file cannot be shown)`, time)
  }

  private checkpointText(goal: string, phase: CheckpointPhase, name: string): string | null {
    const files = this.checkpoints.goals.get(goal)
    const key = `${goal}.${phase}`
    if (!files || this.shown.has(key)) return null
    this.shown.add(key)
    if (phase === 'pre' && files.pre) return preNote(name, files.pre)
    if (phase === 'post' && files.post) return postNote(name, files.post)
    if (phase === 'supervision' && files.supervision) return supervisionNote(name, files.supervision)
    return null
  }

  /** Checkpoint files no event mentions (an event lost in a partial save) still show, at the end of the transcript. */
  private unshownCheckpoints(): void {
    for (const [goal, files] of this.checkpoints.goals) {
      for (const phase of ['pre', 'post', 'supervision'] as const) {
        if (!files[phase]) continue
        const text = this.checkpointText(goal, phase, `${goal}.${phase}.json`)
        if (text) this.note(this.events.at(-1)?.id ?? 0, text, this.lastTime)
      }
    }
  }

  private note(offset: number, content: string, time: number | undefined, isError = false): void {
    this.message(offset, { role: 'system', content, ...(isError ? { isError } : {}) }, time)
  }

  private message(offset: number, fields: Pick<MessageRecord, 'role' | 'content'> & Partial<MessageRecord>, time: number | undefined): void {
    this.records.push({ kind: 'message', offset, uid: null, parentUid: null, agentId: null, startsTurn: false, ...fields, ...(time !== undefined ? { createdAt: time } : {}) })
  }
}

function checkpointFileOf(event: AgentEvent): { goal: string; phase: CheckpointPhase; name: string } | null {
  if (event.type !== 'checkpoint') return null
  const match = CHECKPOINT_FILE.exec(event.content)
  if (!match) return null
  const [name = '', goal = '', phase] = match
  return { goal, phase: phase as CheckpointPhase, name }
}

function callKey(event: AgentEvent): string {
  return `${event.goal}\u0000${event.tool}`
}

function duration(ms: number): string {
  return ms > 0 ? ` (${formatMs(ms)})` : ''
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
}

function decodeJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch (error) {
    return { ok: false, error: (error as Error).message }
  }
}
