import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodeProjectFolder } from '../claude-code/project-folder'
import type { Runtime } from '../../runtime/runtime'
import { FIXTURES } from './claude-home'
import { databaseOf } from '../../store/raw-database'

export const SPOTTER_CWD = '/home/USER/projects/spotter-worktrees/spotter-4te'
export const SPOTTER_SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'

/** The real 1 MB spotter session (Claude Code 2.1.39) as `copies` sessions of their own under `root`, each with `extra` applied. */
export function writeSpotterCopies(root: string, copies: number, extra: (text: string) => string = (text) => text): string[] {
  const text = readFileSync(join(FIXTURES, `claude-code/spotter/projects-dir/${SPOTTER_SESSION}.jsonl`), 'utf8')
  const folder = join(root, 'projects', encodeProjectFolder(SPOTTER_CWD))
  mkdirSync(folder, { recursive: true })
  return Array.from({ length: copies }, (_, copy) => {
    const id = `${SPOTTER_SESSION.slice(0, -2)}${String(copy).padStart(2, '0')}`
    const path = join(folder, `${id}.jsonl`)
    writeFileSync(path, extra(text.replaceAll(SPOTTER_SESSION, id)))
    return path
  })
}

/** Every session's transcript, as the window would show it, by its source's id. */
export function transcriptsBySession(rt: Runtime): Record<string, unknown[]> {
  const rows = databaseOf(rt.store)
    .prepare(
      `SELECT s.source_session_id AS session, m.seq, m.turn, m.role, m.content, m.tool_name AS toolName, m.tool_input AS toolInput, m.created_at AS createdAt
       FROM messages m JOIN sessions s ON s.id = m.session_id ORDER BY s.source_session_id, m.seq`
    )
    .all() as { session: string }[]
  const bySession: Record<string, unknown[]> = {}
  for (const { session, ...message } of rows) (bySession[session] ??= []).push(message)
  return bySession
}
