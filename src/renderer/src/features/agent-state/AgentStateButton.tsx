import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { AgentState } from '../../../../shared/contract'
import { call } from '../../api/client'
import { Modal } from '../../ui/Modal'
import { ErrorState } from '../../ui/States'

const agentStateKey = (workspaceId: number) => ['agent-state', workspaceId] as const

/**
 * "Agent state": shown when an agent in this folder keeps state besides its conversations
 * (CianaParrot's scheduled tasks, session counters and memory files). Opens a panel listing it.
 */
export function AgentStateButton({ workspaceId }: { workspaceId: number }) {
  const state = useQuery({ queryKey: agentStateKey(workspaceId), queryFn: () => call('workspaces.agentState', { workspaceId }) })
  // The button that opened the panel (focus goes back to it), or null while it is closed.
  const [opener, setOpener] = useState<HTMLElement | null>(null)
  if (!state.data || state.data.sources.length === 0) return null
  return (
    <>
      <button type="button" className="button small" data-testid="agent-state-open" title="What the agent keeps besides its conversations" onClick={(event) => setOpener(event.currentTarget)}>
        Agent state
      </button>
      {opener ? (
        <Modal
          title="Agent state"
          onClose={() => setOpener(null)}
          returnFocusTo={opener}
          testId="agent-state"
          wide
          footer={
            <button type="button" className="button primary" onClick={() => setOpener(null)}>
              Close
            </button>
          }
        >
          {state.isError ? <ErrorState title="Could not read the agent state" error={state.error} onRetry={() => void state.refetch()} /> : <AgentStateView state={state.data} />}
        </Modal>
      ) : null}
    </>
  )
}

function AgentStateView({ state }: { state: AgentState }) {
  // Find a memory key, a task or a line of a memory file: rows and texts that do not match are hidden.
  const [filter, setFilter] = useState('')
  const needle = filter.trim().toLowerCase()
  const matches = (text: string) => !needle || text.toLowerCase().includes(needle)
  return (
    <div className="agent-state">
      <input className="input agent-state-filter" data-testid="agent-state-filter" type="search" placeholder="Filter (a memory key, a task, a word in a memory file)" aria-label="Filter the agent state" value={filter} onChange={(event) => setFilter(event.target.value)} />
      {state.sources.map((source) => (
        <section key={`${source.source}:${source.location}`} className="agent-state-source" data-source={source.source}>
          <p className="dialog-intro">
            {source.label} · <span className="mono">{source.location}</span>
          </p>
          {source.problems.length > 0 ? (
            <div className="dialog-warning" role="status">
              {source.problems.map((problem) => (
                <p key={problem}>{problem}</p>
              ))}
            </div>
          ) : null}
          {source.sections.map((section) => {
            const rows = section.rows.filter((row) => row.some(matches))
            const textMatches = section.text !== null && matches(section.text)
            if (needle && rows.length === 0 && !textMatches && !matches(section.title)) return null
            return (
              <details key={section.title} className="agent-state-section" data-testid="agent-state-section" open={section.text === null || (needle !== '' && textMatches)}>
                <summary>{section.title}</summary>
                {section.text !== null ? <pre className="agent-state-text">{section.text}</pre> : null}
                {section.columns.length > 0 && rows.length > 0 ? (
                  <table className="history-table agent-state-table">
                    <thead>
                      <tr>
                        {section.columns.map((column) => (
                          <th key={column}>{column}</th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((row, index) => (
                        <tr key={index}>
                          {row.map((cell, column) => (
                            <td key={column}>{cell}</td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : null}
                {section.note ? <p className="muted">{section.note}</p> : null}
              </details>
            )
          })}
        </section>
      ))}
    </div>
  )
}
