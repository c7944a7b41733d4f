import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createRuntime } from '../../src/main/runtime/runtime'
import { mergeBranch } from '../../src/main/transcripts/merge'
import type { SessionWriter } from '../../src/main/transcripts/session-writer'
import { createRng, type Rng } from '../lib/prng'
import { UiContent } from './content'
import { databaseOf } from '../../src/main/store/raw-database'

export const BIG_TITLE = 'Bench: the long session'
const START = Date.UTC(2026, 0, 5, 9)

export interface UiData {
  workspaceId: number
  workspacePath: string
  bigSessionId: string
  /** Sessions by kind, as stored. */
  kinds: Record<string, number>
  sessions: number
  messages: number
  merges: number
  ms: number
}

/**
 * Fill a data folder through the recorder, the way a native integration would: one workspace
 * holding many small session trees (sub-agents started from a Task call, forks at a turn — some
 * forked again, a few merged back — and sessions continued after /clear), and one long session,
 * written last so it is the newest and heads the session list.
 */
export function generateUiData(dataDir: string, options: { seed: number; sessions: number; bigMessages: number; workspace?: string }): UiData {
  const started = performance.now()
  const runtime = createRuntime({ dataDir, host: { binding: 'web' }, version: 'bench', env: { CLAUDE_CONFIG_DIR: join(dataDir, 'no-claude'), CODEX_HOME: join(dataDir, 'no-codex') }, followImports: false })
  try {
    const { store, recorder } = runtime
    const name = options.workspace ?? 'bench-ui-workspace'
    const workspacePath = join(dataDir, name)
    mkdirSync(workspacePath, { recursive: true })
    const workspaceId = store.workspaces.open(workspacePath, name)
    const content = new UiContent(options.seed)
    const clock = { now: START }
    const rng = createRng(options.seed)
    let left = options.sessions - 1
    let merges = 0

    const play = (writer: SessionWriter, turns: number, close = true): void => {
      for (let i = 0; i < turns; i++) for (const message of content.turn(rng, clock)) writer.append(message)
      if (close) writer.closeTurn()
    }

    while (left > 0) {
      recorder.batch(() => {
        clock.now += rng.int(10 * 60_000, 3 * 3600_000)
        const main = recorder.startSession({ workspaceId, title: '', model: 'claude-sonnet-4-5', createdAt: clock.now })
        left -= 1
        const turns = rng.int(1, 4)
        play(main, turns, false)
        // Sub-agents: each started by a Task call in the main session's last turn.
        for (let i = rng.chance(0.35) ? rng.int(1, 3) : 0; i > 0 && left > 0; i--) {
          const toolCallId = `task_${left}`
          main.append({ role: 'tool_call', content: '', toolName: 'Task', toolCallId, toolInput: { description: 'Explore', prompt: content.prompt(rng) }, createdAt: (clock.now += 1000) })
          const agent = main.startSubAgent({ title: `Explore: ${content.prompt(rng).slice(0, 50)}`, createdAt: clock.now })
          left -= 1
          play(agent, 1)
          agent.close()
          main.append({ role: 'tool_result', content: 'The sub-agent reported back.', toolName: 'Task', toolCallId, createdAt: (clock.now += 1000) })
        }
        main.closeTurn()
        // Forks at a turn, continued; one in five forked again; a few merged back.
        for (let i = rng.chance(0.3) ? rng.int(1, 2) : 0; i > 0 && left > 0; i--) {
          const branch = recorder.fork(main.id, { atTurn: rng.int(1, turns), createdAt: (clock.now += 60_000) })
          left -= 1
          play(branch, rng.int(1, 2))
          if (rng.chance(0.2) && left > 0) {
            const nested = recorder.fork(branch.id, { atTurn: 1, createdAt: (clock.now += 60_000) })
            left -= 1
            play(nested, 1)
          }
          if (rng.chance(0.1)) {
            mergeBranch(store, recorder, branch.id, 'append')
            merges += 1
          }
        }
        // Continued after /clear, once or twice.
        let previous = main.id
        for (let i = rng.chance(0.15) ? rng.int(1, 2) : 0; i > 0 && left > 0; i--) {
          const next = recorder.startSuccessor(previous, { createdAt: (clock.now += 120_000) })
          left -= 1
          play(next, rng.int(1, 2))
          previous = next.id
        }
      })
    }

    const big = recorder.startSession({ workspaceId, title: BIG_TITLE, model: 'claude-sonnet-4-5', createdAt: (clock.now += 3600_000) })
    writeLongSession(big, options.bigMessages, content, rng, clock, recorder.batch.bind(recorder))

    // Kinds as the graph draws them: a session continued after /clear is a main session with a predecessor.
    const kinds = Object.fromEntries(
      (
        databaseOf(store)
          .prepare("SELECT CASE WHEN predecessor_id IS NOT NULL THEN 'successor' ELSE kind END AS kind, count(*) AS n FROM sessions WHERE workspace_id = ? GROUP BY 1 ORDER BY 2 DESC")
          .all(workspaceId) as { kind: string; n: number }[]
      ).map((row) => [row.kind, row.n])
    )
    const totals = databaseOf(store).prepare('SELECT count(*) AS sessions, sum(message_count) AS messages FROM sessions WHERE workspace_id = ?').get(workspaceId) as { sessions: number; messages: number }
    return { workspaceId, workspacePath, bigSessionId: big.id, kinds, sessions: totals.sessions, messages: totals.messages, merges, ms: performance.now() - started }
  } finally {
    runtime.close()
  }
}

/** Exactly `count` messages, whole turns (the last one cut short), 1,000 per transaction. */
function writeLongSession(writer: SessionWriter, count: number, content: UiContent, rng: Rng, clock: { now: number }, batch: (work: () => void) => void): void {
  let written = 0
  while (written < count) {
    batch(() => {
      const target = Math.min(count, written + 1_000)
      while (written < target) {
        for (const message of content.turn(rng, clock).slice(0, count - written)) {
          writer.append(message)
          written += 1
        }
      }
    })
  }
  writer.closeTurn()
}
