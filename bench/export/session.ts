import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { createRuntime, type Runtime } from '../../src/main/runtime/runtime'
import type { SessionWriter } from '../../src/main/transcripts/session-writer'
import { toBatches } from '../generate/batches'
import { ContentFactory } from '../generate/content'
import { planSessions, type PlannedMessage } from '../generate/plan'
import { createRng } from '../lib/prng'

/**
 * One long session in a fresh data folder, written through the recorder and its file journal
 * the way a native agent integration writes: the bench's usual turn shapes (prompts, reasoning,
 * Read/Edit/Bash/Grep/Write calls with their output, answers, compactions), and every Edit or
 * Write also journaled as a file change, so the page carries real per-turn diffs.
 */
export function generateExportSession(dataDir: string, messages: number, seed: number): { runtime: Runtime; sessionId: string } {
  const runtime = createRuntime({ dataDir, host: { binding: 'web' }, version: 'bench', env: { CLAUDE_CONFIG_DIR: join(dataDir, 'no-claude'), CODEX_HOME: join(dataDir, 'no-codex') }, followImports: false })
  const workspacePath = join(dataDir, 'bench-export-workspace')
  mkdirSync(workspacePath, { recursive: true })
  const workspaceId = runtime.store.workspaces.open(workspacePath, 'bench-export-workspace')
  const sessions = planSessions({ seed, sessions: 1, messages, bigIndex: 0, bigSize: messages }, new ContentFactory(seed))
  const files = new Map<string, string>()
  const rng = createRng(seed + 3)
  let writer: SessionWriter | null = null
  const journalEdit = (message: PlannedMessage): void => {
    const input = message.toolInput
    const path = input?.file_path
    if (!writer || typeof path !== 'string') return
    const before = files.get(path) ?? null
    let after: string
    if (message.toolName === 'Write') after = String(input?.content ?? '')
    else if (message.toolName === 'Edit') after = `${before ?? ''}${String(input?.new_string ?? '')}\n`.slice(-rng.int(2_000, 6_000))
    else return
    files.set(path, after)
    writer.recordFileChange({ path, before: before === null ? null : Buffer.from(before), after: Buffer.from(after) })
  }
  for (const batch of toBatches(sessions, 1_000)) {
    runtime.recorder.batch(() => {
      for (const op of batch.ops) {
        if (op.kind === 'start') {
          writer = runtime.recorder.startSession({ workspaceId, title: op.session.title, model: 'claude-sonnet-4-5', createdAt: op.session.createdAt })
          continue
        }
        const { step } = op
        if (!writer) throw new Error('the plan appends before it starts a session')
        if (step.kind === 'append') {
          writer.append(step.message)
          if (step.message.role === 'tool_call') journalEdit(step.message)
        } else if (step.kind === 'closeTurn') writer.closeTurn()
        else writer.compact(step.summary, { createdAt: step.createdAt })
      }
    })
  }
  if (!writer) throw new Error('the plan wrote no session')
  return { runtime, sessionId: (writer as SessionWriter).id }
}
