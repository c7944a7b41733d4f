import type { DoctorCheck } from './section'

/** Sessions Retrace holds whose agent file is gone: kept, and counted per source. */
export const deletedSessionsSection: DoctorCheck = async ({ call }) => {
  const { deleted } = await call('retention.status', {})
  const lines =
    deleted.length === 0
      ? ['None: every imported session\'s file is still where its agent wrote it.']
      : deleted.map((entry) => `${entry.label}: ${entry.sessions} session${entry.sessions === 1 ? '' : 's'} kept in Retrace after the agent deleted ${entry.sessions === 1 ? 'its file' : 'their files'} (first found ${new Date(entry.firstFoundAt).toISOString().slice(0, 10)})`)
  lines.push('(As found by the last import of every agent\'s history: the app and `retrace import --all` look each time.)')
  return { key: 'deletedByAgents', title: 'Sessions the agents deleted, kept in Retrace', lines, json: deleted }
}
