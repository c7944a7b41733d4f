import type { DoctorCheck } from './section'

/** How long each agent keeps its own history, and what to do about a short one. */
export const retentionSection: DoctorCheck = async ({ call }) => {
  const { agents } = await call('retention.status', {})
  const lines: string[] = []
  for (const agent of agents) {
    lines.push(agent.note) // it names the agent
    for (const problem of agent.problems) lines.push(`  warning: ${problem}`)
  }
  const claude = agents.find((agent) => agent.source === 'claude-code')
  if (claude && claude.deletesAfterDays !== null) {
    lines.push(
      'Retrace keeps every session it imported, whatever the agent deletes later; it imports while the app,',
      '`retrace serve` or `retrace import --all --watch` runs (as a user service: see the README).'
    )
    if (claude.settingsFile) lines.push(`To keep Claude Code's own files longer: retrace doctor --set-claude-retention DAYS (edits ${claude.settingsFile}, with a backup; undo: --undo-claude-retention).`)
    else lines.push('Claude Code\'s retention is set by your organisation\'s managed settings: Retrace does not change those.')
  }
  return { key: 'retention', title: 'How long the agents keep their history', lines, json: agents }
}
