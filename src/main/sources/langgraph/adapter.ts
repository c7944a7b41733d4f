import { basename } from 'node:path'
import type { SnapshotSourceAdapter } from '../adapter'
import { readCheckpointDb } from './checkpoint-db'
import { discoverLangGraphFiles, discoverLangGraphWorkspace, langGraphRoots } from './discover'
import { langGraphFileTools } from './file-tools'
import { threadOrigins, threadSessions, withoutMessages } from './thread-records'

/** LangGraph SqliteSaver / AsyncSqliteSaver checkpoint databases: each thread a session, time travel as branches. */
export const langGraphAdapter: SnapshotSourceAdapter = {
  kind: 'snapshot',
  name: 'langgraph',
  label: 'LangGraph',
  fileTools: langGraphFileTools,
  roots: langGraphRoots,
  discoverAll: discoverLangGraphFiles,
  discover: discoverLangGraphWorkspace,
  async read(file) {
    const db = await readCheckpointDb(file.path)
    // A thread with no conversation is not a session, but it is never dropped without a word.
    const untold = db.threads.flatMap((thread) => {
      const channels = withoutMessages(thread)
      if (channels === null) return []
      const holds = channels.length > 0 ? `its state holds ${channels.join(', ')}` : 'its state holds no channel of its own'
      return [`${basename(file.path)}: thread ${thread.threadId} keeps no messages channel (${holds}): no conversation to show; not imported`]
    })
    const origins = threadOrigins(db.threads)
    return { sessions: db.threads.flatMap((thread) => threadSessions(thread, origins.get(thread.threadId) ?? null)), problems: [...db.problems, ...untold] }
  }
}
