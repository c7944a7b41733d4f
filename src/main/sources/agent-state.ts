import type { AgentState } from '../../shared/contract'
import { readThreadIds } from './langgraph/checkpoint-db'
import { readCianaParrotState, type CianaParrotState } from './cianaparrot/agent-state'
import { deploymentAt } from './cianaparrot/deployment'
import { discoverHeadlessAgentWorkspace, headlessAgentRoots } from './headless-agent/discover'
import { readHeadlessMemory } from './headless-agent/memory'

/**
 * The agent state of a workspace folder, from every source that keeps one there. Read on
 * request (the panel is opened rarely, and these files change under the agent's hands).
 */
export async function workspaceAgentState(workspacePath: string, addedFolders: readonly { source: string; path: string }[] = [], env: NodeJS.ProcessEnv = process.env, now = new Date()): Promise<AgentState> {
  const sources: AgentState['sources'] = []
  // The workspace folder itself, and the deployments added to it as CianaParrot folders.
  const roots = [workspacePath, ...addedFolders.filter((folder) => folder.source === 'cianaparrot').map((folder) => folder.path)]
  for (const root of new Set(roots)) {
    const deployment = deploymentAt(root)
    if (!deployment) continue
    // The counters are checked against the thread ids alone: no checkpoint needs decoding.
    const { threadIds, problems } = await readThreadIds(deployment.checkpointsDb)
    const state = readCianaParrotState(deployment, threadIds, now)
    sources.push({ source: 'cianaparrot', label: 'CianaParrot', location: deployment.root, sections: cianaParrotSections(state, now), problems: [...problems, ...state.problems] })
  }
  // The headless agent's key-value memory (seed 001, "Memory"), for its home opened or added as a folder.
  const added = addedFolders.filter((folder) => folder.source === 'headless-agent').map((folder) => folder.path)
  for (const home of new Set([workspacePath, ...added])) {
    // The workspace is the home when the source itself would read it so; an added folder is one by the user's say.
    const roots = added.includes(home) ? [home] : headlessAgentRoots(env)
    if ((await discoverHeadlessAgentWorkspace(home, roots)).length === 0) continue
    const memory = readHeadlessMemory(home)
    sources.push({
      source: 'headless-agent',
      label: 'Headless agent',
      location: home,
      sections: [{ title: 'Memory (memory.json)', text: null, columns: ['key', 'value'], rows: memory.entries.map((entry) => [entry.key, entry.value]), note: memory.entries.length === 0 ? 'Empty.' : null }],
      problems: memory.problems
    })
  }
  return { sources }
}

function cianaParrotSections(state: CianaParrotState, now: Date): AgentState['sources'][number]['sections'] {
  const when = (iso: string | null, problem: string | null) => (iso === null ? (problem ? `? ${problem}` : '—') : Date.parse(iso) < now.getTime() ? `overdue since ${iso}` : iso)
  const empty = { text: null, columns: [], rows: [], note: null }
  const sections: AgentState['sources'][number]['sections'] = [
    {
      ...empty,
      title: 'Scheduled tasks',
      columns: ['id', 'type', 'when', 'prompt', 'chat', 'last run', 'next run', 'active'],
      rows: state.scheduledTasks.map((task) => [task.id, task.type, task.value, task.prompt, [task.channel, task.chatId].filter(Boolean).join(' '), task.lastRun ?? '—', when(task.nextRun, task.problem), task.active ? 'yes' : 'no']),
      note: state.scheduledTasks.length === 0 ? 'No scheduled tasks.' : null
    },
    {
      ...empty,
      title: 'Session counters (/new resets per chat)',
      columns: ['chat', 'counter', 'highest _sN in the checkpoints'],
      rows: state.sessionCounters.map((counter) => [counter.baseKey, String(counter.counter), counter.highestInCheckpoints === null ? '—' : String(counter.highestInCheckpoints)]),
      note: state.sessionCounters.some((counter) => counter.behind) ? 'A counter is behind its checkpoints: CianaParrot raises it at its next start.' : null
    },
    {
      ...empty,
      title: 'Claude Code user states',
      columns: ['user', 'mode', 'project', 'session', 'model'],
      rows: state.claudeCodeUsers.map(({ userId, state: user }) => [userId, ...['mode', 'active_project_path', 'active_session_id', 'active_model'].map((key) => (typeof user[key] === 'string' ? user[key] : '—'))])
    }
  ]
  for (const file of state.memoryFiles) sections.push({ ...empty, title: `workspace/${file.name}`, text: file.text, note: file.text === null ? 'Missing.' : null })
  return sections
}
