import { dirname } from 'node:path'
import type { HistoryFile, SnapshotSourceAdapter } from '../adapter'
import { readCheckpointDb } from '../langgraph/checkpoint-db'
import { readScheduledTasks } from './agent-state'
import { deploymentAt, deploymentFingerprint } from './deployment'
import { cianaParrotSessions } from './threads'
import { fileTools } from './file-tools'

/** `RETRACE_CIANAPARROT_DIR`: deployment folders (path-list separated) to import wherever they are. */
function roots(env: NodeJS.ProcessEnv): string[] {
  return (env.RETRACE_CIANAPARROT_DIR ?? '').split(process.platform === 'win32' ? ';' : ':').filter(Boolean)
}

function historyFile(root: string): HistoryFile[] {
  const deployment = deploymentAt(root)
  if (!deployment) return []
  return [{ source: 'cianaparrot', path: deployment.checkpointsDb, sessionId: deployment.checkpointsDb, role: 'main', cwd: root, backupDir: null, fingerprint: deploymentFingerprint(deployment) }]
}

/** CianaParrot deployments (seeds 000 and 003): the LangGraph threads of data/checkpoints.db with CianaParrot's meaning. */
export const cianaParrotAdapter: SnapshotSourceAdapter = {
  kind: 'snapshot',
  name: 'cianaparrot',
  label: 'CianaParrot',
  fileTools,
  // No file this agent wrote is public: the importer follows its specification (fixtures/cianaparrot/README.md).
  fromWriterSourceOnly: true,
  roots,
  discoverAll: (folders) => Promise.resolve(folders.flatMap(historyFile)),
  discover: (workspacePath) => Promise.resolve(historyFile(workspacePath)),
  async read(file) {
    const root = dirname(dirname(file.path))
    const deployment = deploymentAt(root)
    if (!deployment) return { sessions: [], problems: [`${root} is no longer a CianaParrot deployment`] }
    const db = await readCheckpointDb(deployment.checkpointsDb)
    const threadIds = new Set(db.threads.map((thread) => thread.threadId))
    // Only the tasks name sessions (scheduler threads); the rest of the agent state is the panel's.
    const problems = [...db.problems]
    const tasks = new Map(readScheduledTasks(deployment, new Date(), problems).map((task) => [task.id, task]))
    const sessions = db.threads.flatMap((thread) => {
      const made = cianaParrotSessions(thread, { dataDir: deployment.data, threadIds, tasks })
      problems.push(...made.problems)
      return made.sessions
    })
    return { sessions, problems }
  }
}
