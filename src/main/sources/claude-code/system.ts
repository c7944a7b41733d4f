import { localCommandText, stripAnsi } from './content'
import type { SystemLine } from './schema'

/**
 * The readable text of a system line: '' to show nothing (bookkeeping that went well), null when
 * the subtype is not understood and carries no text of its own.
 */
export function systemText(subtype: string, line: SystemLine): string | null {
  const content = typeof line.content === 'string' ? line.content : null
  switch (subtype) {
    case 'local_command':
      return content === null ? '' : localCommandText(content)
    case 'stop_hook_summary': {
      const errors = (line.hookErrors ?? []).map((error) => (typeof error === 'string' ? error : JSON.stringify(error)))
      if (!errors.length && !line.preventedContinuation) return ''
      const parts = [line.preventedContinuation ? 'Stop hook prevented continuation' : 'Stop hook failed']
      if (line.stopReason) parts.push(line.stopReason)
      return [parts.join(': '), ...errors].join('\n')
    }
    case 'api_error': {
      const retry =
        line.retryAttempt != null
          ? ` (retry ${line.retryAttempt}${line.maxRetries != null ? `/${line.maxRetries}` : ''}${line.retryInMs != null ? ` in ${Math.round(line.retryInMs / 1000)} s` : ''})`
          : ''
      return `API error${retry}: ${content ?? errorText(line.error)}`
    }
    default:
      return content === null ? null : stripAnsi(content).trim()
  }
}

function errorText(error: unknown): string {
  if (typeof error === 'string') return error
  if (error !== null && typeof error === 'object') {
    const record = error as Record<string, unknown>
    const nested = record.error !== null && typeof record.error === 'object' ? (record.error as Record<string, unknown>) : null
    const message = record.message ?? nested?.message
    if (typeof message === 'string') return message
    return JSON.stringify(error)
  }
  return 'unknown error'
}
