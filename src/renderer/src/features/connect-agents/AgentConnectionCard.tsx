import { useMutation } from '@tanstack/react-query'
import type { AgentConnection, ConnectionFile, HookRunInfo } from '../../../../shared/contract'
import { call } from '../../api/client'
import { errorMessage } from '../../lib/errors'
import { plural } from '../../lib/format'
import { CopyLine } from '../../ui/CopyLine'
import { RelativeTime } from '../../ui/RelativeTime'
import { actions, hookStanding, overallStanding, STANDING_LABELS, type Scope } from './connection-state'

/** One agent in the Connect agents panel: where its hooks and MCP server are, its last runs, and how to (dis)connect it. */
export function AgentConnectionCard({ agent, scope, workspaceId, withMcp, onChanged }: { agent: AgentConnection; scope: Scope; workspaceId: number; withMcp: boolean; onChanged: () => void }) {
  const connect = useMutation({
    mutationFn: (action: 'connect' | 'disconnect') => call(action === 'connect' ? 'agents.connect' : 'agents.disconnect', { agent: agent.agent, scope, mcp: withMcp, ...(scope === 'project' ? { workspaceId } : {}) }),
    onSuccess: onChanged
  })
  const standing = overallStanding(agent, scope)
  const can = actions(agent, scope, withMcp)
  // From a terminal: the command that does what the main button does.
  const terminal = agent.commands ? (can.install || !can.uninstall ? agent.commands.install : agent.commands.uninstall) : null
  const command = terminal ? (scope === 'project' ? terminal.project : terminal.user) : null
  const testId = `agent-${agent.agent}`
  return (
    <li className="agent-card" data-testid={testId}>
      <div className="agent-card-head">
        <h3 className="agent-card-name">{agent.label}</h3>
        <span className={`badge ${standing === 'connected' ? 'badge-connected' : standing === 'absent' ? 'badge-muted' : 'badge-child'}`} data-testid={`${testId}-state`}>
          {STANDING_LABELS[standing]}
        </span>
        <span className="agent-card-actions">
          {can.install ? (
            <button type="button" className="button small primary" disabled={connect.isPending || !agent.commands} onClick={() => connect.mutate('connect')} data-testid={`${testId}-install`}>
              {standing === 'other-retrace' ? 'Point at this Retrace' : 'Install'}
            </button>
          ) : null}
          {can.uninstall ? (
            <button type="button" className="button small" disabled={connect.isPending} onClick={() => connect.mutate('disconnect')} data-testid={`${testId}-uninstall`}>
              Uninstall
            </button>
          ) : null}
        </span>
      </div>
      {connect.data ? <Outcome outcome={connect.data} testId={testId} /> : null}
      {connect.isError ? (
        <div className="dialog-error" role="alert">
          <p className="dialog-error-title">Nothing was changed</p>
          <p>{errorMessage(connect.error)}</p>
        </div>
      ) : null}
      <p className="agent-card-captures">{agent.captures}</p>
      <dl className="agent-card-facts">
        <dt>Hooks</dt>
        <dd data-testid={`${testId}-hooks`}>
          <span className="mono">{agent.events.begin}</span> → begin, <span className="mono">{agent.events.end}</span> → end: <Files files={agent.hooks} kind="hooks" />
        </dd>
        <dt>MCP server</dt>
        <dd data-testid={`${testId}-mcp`}>
          <Files files={agent.mcp} kind="mcp" />
        </dd>
        <dt>Last capture</dt>
        <dd data-testid={`${testId}-last-capture`}>{agent.lastCapture ? <Run run={agent.lastCapture} /> : <span className="muted">none yet</span>}</dd>
        {agent.lastError ? (
          <>
            <dt>Last error</dt>
            <dd className="agent-card-error" data-testid={`${testId}-last-error`}>
              <RelativeTime at={agent.lastError.at} /> ({agent.lastError.phase}
              {agent.lastError.workspace ? <> in <span className="mono">{agent.lastError.workspace}</span></> : null}): {agent.lastError.error}
            </dd>
          </>
        ) : null}
      </dl>
      {agent.notes.map((note) => (
        <p key={note} className="dialog-warning">
          {note}
        </p>
      ))}
      <p className="agent-card-limits muted">{agent.limits}</p>
      {command ? (
        <>
          <p className="agent-card-terminal">Or from a terminal:</p>
          <CopyLine text={command} testId={`${testId}-command`} />
        </>
      ) : null}
    </li>
  )
}

function Files({ files, kind }: { files: ConnectionFile[]; kind: 'hooks' | 'mcp' }) {
  const found = files.filter((file) => (kind === 'hooks' ? hookStanding(file) !== 'absent' : file.mcp || file.problem))
  if (found.length === 0) return <span className="muted">{kind === 'hooks' ? 'not installed' : 'not registered'}</span>
  return (
    <>
      {found.map((file, index) => (
        <span key={file.file}>
          {index > 0 ? '; ' : null}
          {file.problem ? file.problem : kind === 'hooks' ? STANDING_LABELS[hookStanding(file)].toLowerCase() : file.mcp === 'current' ? 'registered' : file.mcp === 'other' ? 'registered for another Retrace' : 'a server named retrace that is not Retrace'} in <span className="mono">{file.file}</span> ({file.scope === 'user' ? 'every project' : 'this workspace'})
        </span>
      ))}
    </>
  )
}

function Run({ run }: { run: HookRunInfo }) {
  return (
    <>
      <RelativeTime at={run.at} />: turn {run.turn ?? '?'}, {plural(run.changes ?? 0, 'file')} changed
      {run.workspace ? <> in <span className="mono">{run.workspace}</span></> : null} <span className="muted">({run.ms} ms{run.via === 'app' ? ', captured by the running app' : ''})</span>
    </>
  )
}

function Outcome({ outcome, testId }: { outcome: { files: { file: string; what: string[]; backup: string | null }[]; problems: { message: string }[] }; testId: string }) {
  if (outcome.problems.length > 0) {
    return (
      <div className="dialog-error" role="alert" data-testid={`${testId}-problem`}>
        <p className="dialog-error-title">Left as it was</p>
        {outcome.problems.map((problem) => (
          <p key={problem.message}>{problem.message}</p>
        ))}
      </div>
    )
  }
  return (
    <ul className="agent-card-outcome" data-testid={`${testId}-outcome`}>
      {outcome.files.length === 0 ? <li>Nothing to change.</li> : null}
      {outcome.files.map((file) => (
        <li key={file.file}>
          <span className="mono">{file.file}</span>: {file.what.join('; ')}.{file.backup ? <> Backup: <span className="mono">{file.backup}</span></> : null}
        </li>
      ))}
      {outcome.files.length > 0 ? <li className="muted">Agents read their settings when they start: restart any that are running.</li> : null}
    </ul>
  )
}
