import type { AgentState } from '../../shared/contract'
import { readCheckpointDb } from './langgraph/checkpoint-db'
import { readCianaParrotState, type CianaParrotState } from './cianaparrot/agent-state'
import { deploymentAt } from './cianaparrot/deployment'

/**
 * The agent state of a workspace folder, from every source that keeps one there. Read on
 * request (the panel is opened rarely, and these files change under the agent's hands).
 */
export function workspaceAgentState(workspacePath: string, now = new Date()): AgentState {
  const sources: AgentState['sources'] = []
  const deployment = deploymentAt(workspacePath)
  if (deployment) {
    const threads = readCheckpointDb(deployment.checkpointsDb).threads.map((thread) => thread.threadId)
    const state = readCianaParrotState(deployment, threads, now)
    sources.push({ source: 'cianaparrot', label: 'CianaParrot', location: deployment.root, sections: cianaParrotSections(state, now), problems: state.problems })
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
