import { existsSync } from 'node:fs'
import { oneLine } from './content'
import { readHeadObjects, stringField } from '../files'

/** Longest sub-agent title taken from its metadata, in characters. */
const TITLE_LENGTH = 120

/**
 * What Claude Code (2.1.x) writes beside a sub-agent's transcript in `agent-<id>.meta.json`:
 * `{"agentType":"general-purpose","description":"Research Claude Code plan mode"}`, sometimes
 * with the `worktreePath` it ran in, and in later versions the `toolUseId` of the call that
 * started it. The description (the one the Task/Agent call gave) titles the sub-agent; the
 * tool-use id places it before the parent's tool result names it (while it still runs).
 */
export async function readAgentMeta(agentPath: string): Promise<{ title?: string; startedBy?: string }> {
  const metaPath = agentPath.replace(/\.jsonl$/, '.meta.json')
  if (metaPath === agentPath || !existsSync(metaPath)) return {}
  const [meta] = await readHeadObjects(metaPath, 1).catch(() => [])
  if (!meta) return {}
  const description = stringField(meta, 'description')
  const title = description ? oneLine(description, TITLE_LENGTH) : ''
  const startedBy = stringField(meta, 'toolUseId')
  return { ...(title ? { title } : {}), ...(startedBy ? { startedBy } : {}) }
}
