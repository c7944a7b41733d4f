import { sourceLabel } from './source-labels'

/**
 * One count of records an importer did not read, in words: "Codex CLI 0.125.0: 1,204 records of
 * event_msg "foo" not read". The window, the CLI and `retrace doctor` say it the same way.
 */
export function unreadText(tally: { source: string; agentVersion: string | null; what: string; count: number }): string {
  const version = tally.agentVersion ? ` ${tally.agentVersion}` : ''
  const records = tally.count === 1 ? '1 record' : `${tally.count.toLocaleString('en-US')} records`
  return `${sourceLabel(tally.source)}${version}: ${records} of ${tally.what} not read`
}
