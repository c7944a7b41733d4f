import { open } from 'node:fs/promises'
import { oneLine } from './content'
import { stringField } from '../files'

/** Longest sub-agent title taken from its metadata, in characters. */
const TITLE_LENGTH = 120
/** A metadata file is a few hundred bytes; more than this is not one. */
const MAX_META_BYTES = 64 * 1024

/** What a sub-agent's `agent-<id>.meta.json` says, as discovery uses it. */
export interface AgentMeta {
  /** The description the Task/Agent call gave: the sub-agent's title. */
  title?: string
  /** The tool-use id of the call that started it. */
  startedBy?: string
  /** `general-purpose`, `Explore`, `Plan`, a user-defined agent, `workflow-subagent`… */
  agentType?: string
  /** The model it was asked to run on (`haiku`, `opus`, a model id); absent when it inherits the caller's. */
  model?: string
  /** 1 for an agent the session started, 2 for one a sub-agent started, and so on. */
  spawnDepth?: number
  /** The agent that started this one (spawnDepth ≥ 2). */
  parentAgentId?: string
}

/**
 * What Claude Code (2.1.x) writes beside a sub-agent's transcript in `agent-<id>.meta.json`:
 * `{"agentType":"general-purpose","description":"Research Claude Code plan mode"}`, sometimes
 * with the `worktreePath` it ran in, and in later versions the `toolUseId` of the call that
 * started it, its `spawnDepth`, the `model` it was asked for and, for an agent a sub-agent
 * started, that agent's id as `parentAgentId` (its transcript still sits flat in the session's
 * `subagents/`). Workflow agents' files say only `{"agentType":"workflow-subagent"}`.
 */
export async function readAgentMeta(agentPath: string): Promise<AgentMeta> {
  const metaPath = agentPath.replace(/\.jsonl$/, '.meta.json')
  if (metaPath === agentPath) return {}
  const meta = await readMetaObject(metaPath)
  if (!meta) return {}
  const description = stringField(meta, 'description')
  const title = description ? oneLine(description, TITLE_LENGTH) : ''
  const startedBy = stringField(meta, 'toolUseId')
  const agentType = stringField(meta, 'agentType')
  const model = stringField(meta, 'model')
  const parentAgentId = stringField(meta, 'parentAgentId')
  const depth = meta.spawnDepth
  return {
    ...(title ? { title } : {}),
    ...(startedBy ? { startedBy } : {}),
    ...(agentType ? { agentType: oneLine(agentType, 80) } : {}),
    ...(model && model !== 'inherit' ? { model: oneLine(model, 80) } : {}),
    ...(typeof depth === 'number' && Number.isInteger(depth) && depth > 0 ? { spawnDepth: depth } : {}),
    ...(parentAgentId ? { parentAgentId } : {})
  }
}

/** The file's JSON object (compact or pretty-printed), or null when it is absent, too large or not one. */
async function readMetaObject(path: string): Promise<Record<string, unknown> | null> {
  try {
    const handle = await open(path, 'r')
    try {
      const buffer = Buffer.alloc(MAX_META_BYTES + 1)
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
      if (bytesRead > MAX_META_BYTES) return null
      const value: unknown = JSON.parse(buffer.subarray(0, bytesRead).toString('utf8'))
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
    } finally {
      await handle.close()
    }
  } catch {
    return null
  }
}
