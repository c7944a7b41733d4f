import { join } from 'node:path'
import { RetraceError, type RetentionChangeInfo } from '../../shared/contract'
import type { Handlers } from '../rpc/dispatcher'
import { RETENTION_CHANGES_FILE, setClaudeRetention, undoClaudeRetention, type RetentionChange } from '../sources/claude-code/retention-change'
import { retentionStatus } from '../sources/retention-status'
import type { HandlerContext } from './context'

export function retentionHandlers(ctx: HandlerContext): Pick<Handlers, 'retention.status' | 'retention.setClaude' | 'retention.undoClaude'> {
  const changesFile = () => join(ctx.store.dataDir, RETENTION_CHANGES_FILE)
  return {
    'retention.status': () => retentionStatus(ctx.store, ctx.imports.environment),
    'retention.setClaude': ({ days }) => {
      const claude = retentionStatus(ctx.store, ctx.imports.environment).agents.find((agent) => agent.source === 'claude-code')
      if (claude?.origin === 'managed-settings') throw new RetraceError('VALIDATION', "Claude Code's retention is set by your organisation's managed settings, which win over yours: Retrace does not change it.")
      return info(attempt('VALIDATION', () => setClaudeRetention(ctx.imports.environment, days, changesFile())))
    },
    'retention.undoClaude': () => info(attempt('CONFLICT', () => undoClaudeRetention(changesFile())))
  }
}

/** The agent's file could not be written, or undone: say why, as the contract's error. */
function attempt(code: 'VALIDATION' | 'CONFLICT', work: () => RetentionChange): RetentionChange {
  try {
    return work()
  } catch (error) {
    throw new RetraceError(code, error instanceof Error ? error.message : String(error))
  }
}

function info(change: RetentionChange): RetentionChangeInfo {
  return { file: change.file, backup: change.backup, before: change.before, after: change.after, at: change.at }
}
