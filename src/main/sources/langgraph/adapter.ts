import type { SnapshotSourceAdapter } from '../adapter'
import { readCheckpointDb } from './checkpoint-db'
import { discoverLangGraphFiles, discoverLangGraphWorkspace, langGraphRoots } from './discover'
import { threadSessions } from './thread-records'

/** LangGraph SqliteSaver / AsyncSqliteSaver checkpoint databases: each thread a session, time travel as branches. */
export const langGraphAdapter: SnapshotSourceAdapter = {
  kind: 'snapshot',
  name: 'langgraph',
  label: 'LangGraph',
  roots: langGraphRoots,
  discoverAll: discoverLangGraphFiles,
  discover: discoverLangGraphWorkspace,
  async read(file) {
    const db = await readCheckpointDb(file.path)
    return { sessions: db.threads.flatMap(threadSessions), problems: db.problems }
  }
}
