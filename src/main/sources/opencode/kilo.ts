import { homedir } from 'node:os'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import type { SourceRecord } from '../records'

/**
 * The Kilo CLI (Kilo-Org/kilocode, `@kilocode/cli`, which newer Kilo Code extensions run) is a
 * fork of OpenCode that keeps OpenCode's data layout under its own app name: `Global.Path.data`
 * is xdg-basedir's `$XDG_DATA_HOME/kilo`, else `~/.local/share/kilo` (no platform branch: the
 * same on macOS and Windows), holding `kilo.db` (`kilo-<channel>.db` on other channels, a
 * pre-rename `opencode-<channel>.db` still used when present; `$KILO_DB` replaces it, an
 * absolute path or one relative to the data folder) and, before its database, `storage/`.
 * The tables and JSON objects are OpenCode's, so OpenCode's reader reads them.
 */
export function kiloRoots(env: NodeJS.ProcessEnv): string[] {
  const data = join(env.XDG_DATA_HOME?.trim() || join(env.HOME ?? homedir(), '.local', 'share'), 'kilo')
  const roots = [data]
  const db = env.KILO_DB?.trim()
  if (db && db !== ':memory:') roots.push(dirname(isAbsolute(db) ? db : join(data, db)))
  return roots.map((root) => resolve(root))
}

/** Kilo's database names: `kilo.db`, `kilo-<channel>.db`. */
export const KILO_DB_NAME = /^kilo(-[A-Za-z0-9._-]+)?\.db$/

/** A store the Kilo CLI wrote: a `kilo*.db`, or any store of a data folder named `kilo`. */
export function isKiloStore(path: string): boolean {
  return KILO_DB_NAME.test(basename(path)) || basename(dirname(path)) === 'kilo'
}

/** Longest first-prompt title, in characters. */
const TITLE_LENGTH = 120

/**
 * Marks a Kilo CLI session as Kilo's (both agents are shown by the `opencode` source), as the
 * Cline family marks Roo Code and Kilo Code tasks: " (Kilo CLI)" after its title, or after its
 * first prompt when Kilo had not titled it yet.
 */
export function labelKiloSession(records: SourceRecord[]): void {
  const meta = records.find((record) => record.kind === 'session-meta')
  if (meta?.kind !== 'session-meta') return
  if (meta.title) {
    meta.title = `${meta.title} (Kilo CLI)`
    return
  }
  const prompt = records.find((record) => record.kind === 'message' && record.role === 'user' && record.content.trim() !== '')
  const line = prompt?.kind === 'message' ? (prompt.content.trim().split('\n')[0] ?? '') : ''
  const title = line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line
  Object.assign(meta, { title: title ? `${title} (Kilo CLI)` : 'Kilo CLI session', titleOrigin: 'first-prompt' })
}
