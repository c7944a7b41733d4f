import { dirname } from 'node:path'
import type { SnapshotSession, SnapshotSourceAdapter } from '../adapter'
import { readSessionCheckpoints } from './checkpoint-files'
import { discoverHeadlessAgentFiles, discoverHeadlessAgentWorkspace, headlessAgentRoots } from './discover'
import { readHeadlessMemory } from './memory'
import { sessionSnapshot } from './session-records'
import { readSessionsDb } from './sessions-db'
import { fileTools } from './file-tools'

/**
 * The headless agent's home (`~/.agent`): each row of `sessions.db` a session, each goal a turn,
 * the goal's checkpoint files shown on its turn. Everything is read, never written.
 */
export const headlessAgentAdapter: SnapshotSourceAdapter = {
  kind: 'snapshot',
  name: 'headless-agent',
  label: 'Headless agent',
  fileTools,
  // No file this agent wrote is public: the importer follows its specification (fixtures/headless-agent/README.md).
  fromWriterSourceOnly: true,
  roots: headlessAgentRoots,
  discoverAll: discoverHeadlessAgentFiles,
  discover: discoverHeadlessAgentWorkspace,
  async read(file) {
    const home = dirname(file.path)
    const db = await readSessionsDb(file.path)
    // Memory is agent state, not a session (readHeadlessMemory serves it); read here only so an
    // unreadable memory.json is in the import report.
    const problems = [...db.problems, ...readHeadlessMemory(home).problems]
    const sessions: SnapshotSession[] = []
    for (const agentSession of db.sessions) {
      const checkpoints = readSessionCheckpoints(home, agentSession.row.id)
      const snapshot = sessionSnapshot(agentSession, checkpoints)
      problems.push(...checkpoints.problems, ...snapshot.problems)
      sessions.push(snapshot.session)
    }
    return { sessions, problems }
  }
}
