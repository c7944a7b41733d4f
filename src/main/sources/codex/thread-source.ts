/**
 * The thread that spawned this one, from its `session_meta` payload: a child thread (a Codex
 * sub-agent) names it in `source.subagent.thread_spawn.parent_thread_id` (codex-rs protocol
 * `SessionSource::SubAgent(SubAgentSource::ThreadSpawn { parent_thread_id, depth, agent_path,
 * agent_nickname, agent_role })`, serialised `{"subagent":{"thread_spawn":{…}}}`), newer releases
 * in `parent_thread_id` too (`SessionMeta`, also set for Codex's own reviewer threads).
 */
export function spawnedBy(meta: Record<string, unknown>): string | null {
  const spawn = field(field(field(meta, 'source'), 'subagent'), 'thread_spawn')
  const parent = field(spawn, 'parent_thread_id') ?? field(meta, 'parent_thread_id')
  return typeof parent === 'string' && parent !== '' && parent !== meta.id ? parent : null
}

function field(value: unknown, key: string): unknown {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined
}
