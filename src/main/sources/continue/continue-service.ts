import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { RetraceError } from '../../../shared/contract'
import type { Store } from '../../store/store'
import { claudeRoots } from '../claude-code/discover'
import { encodeProjectFolder } from '../claude-code/project-folder'
import { codexRoots } from '../codex/discover'
import { claudeCodeLines } from './claude-code-lines'
import { codexLines } from './codex-lines'
import { isResumableAgent, readConversation, type ResumableAgent } from './conversation'
import { writeNewFile } from './new-file'

export interface ContinueRequest {
  sessionId: string
  turn: number
  /** Which agent; the session's own source when left out (and it must be that source). */
  agent?: ResumableAgent | undefined
}

export interface ContinuedSession {
  agent: ResumableAgent
  /** The new session file, in the agent's own folder. */
  path: string
  /** The agent's id of the new session. */
  agentSessionId: string
  /** The folder to resume in (the session's cwd). */
  cwd: string
  /** Whether that folder is on this computer (a moved project's, or another machine's, is not: `cd` would fail). */
  cwdExists: boolean
  /** What to type to resume it, from any folder. */
  command: string
  /** How many prompts, replies and tool calls the file holds. */
  items: number
}

/**
 * Write a new session file in the agent's own format and folder holding a session's
 * conversation up to the end of `turn` (a Retrace branch: its parent's prefix and its own
 * turns), so the agent can resume it. Only a new file is written (refused if the name exists);
 * nothing else in the agent's folder is touched.
 */
export function continueInAgent(store: Store, env: NodeJS.ProcessEnv, request: ContinueRequest, now: number = Date.now()): ContinuedSession {
  const session = store.sessions.require(request.sessionId)
  if (!isResumableAgent(session.source)) {
    throw new RetraceError('VALIDATION', `"${session.title}" is a ${session.source} session: Retrace-only, no agent can resume it.`)
  }
  const agent = request.agent ?? session.source
  if (agent !== session.source) throw new RetraceError('VALIDATION', `"${session.title}" is a ${session.source} session; it can be continued in ${session.source} only.`)
  const conversation = readConversation(store, session.id, request.turn)
  const id = randomUUID()
  const cwd = conversation.cwd
  const path = agent === 'claude-code' ? join(claudeRoots(env)[0] ?? '', 'projects', encodeProjectFolder(cwd), `${id}.jsonl`) : codexRolloutPath(codexRoots(env)[0] ?? '', id, now)
  const lines = agent === 'claude-code' ? claudeCodeLines(conversation, { sessionId: id, cwd, now }) : codexLines(conversation, { threadId: id, cwd, now })
  // Recorded first: an import that finds the file at once links it already (R61).
  store.continuations.record(agent, id, session.rowId, request.turn, now)
  writeNewFile(path, lines.map((line) => `${line}\n`).join(''))
  const resume = agent === 'claude-code' ? `claude --resume ${id}` : `codex resume ${id}`
  return { agent, path, agentSessionId: id, cwd, cwdExists: existsSync(cwd), command: `cd ${shellQuote(cwd)} && ${resume}`, items: conversation.items.length }
}

/** `sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl`, in local time as Codex names them. */
export function codexRolloutPath(home: string, id: string, now: number): string {
  const date = new Date(now)
  const pad = (n: number) => String(n).padStart(2, '0')
  const [year, month, day] = [String(date.getFullYear()), pad(date.getMonth() + 1), pad(date.getDate())]
  const time = `${pad(date.getHours())}-${pad(date.getMinutes())}-${pad(date.getSeconds())}`
  return join(home, 'sessions', year, month, day, `rollout-${year}-${month}-${day}T${time}-${id}.jsonl`)
}

/** A POSIX shell word for the path, whatever it holds. */
function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`
}
