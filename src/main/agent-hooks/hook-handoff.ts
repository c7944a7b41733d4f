import { join } from 'node:path'
import { MAX_HOOK_INPUT_BYTES } from './hook-input'

/**
 * How an agent's hook hands its turn to a Retrace that has the data folder open (the app or
 * `retrace serve`): a Unix domain socket in the data folder, one request per connection, each
 * message one line of JSON. The hook sends a request; the app answers `accepted` once it has
 * taken the turn on, then the result. Before `accepted` the hook may give up and capture the
 * turn itself; after it, the turn is the app's (so a slow capture is never done twice).
 * Only what both sides need is here: the hook's side loads nothing else (see handoff-client.ts).
 */

export const HOOK_SOCKET_FILE = 'hooks.sock'
export const HANDOFF_VERSION = 1
/** A request is the agent's input plus a few short fields. */
export const MAX_HANDOFF_BYTES = MAX_HOOK_INPUT_BYTES + 64 * 1024

/**
 * The longest socket path the system takes (sun_path: 108 bytes on Linux, 104 on macOS, with
 * its NUL). Node does not refuse a longer one: it cuts it short, which would put the socket in
 * some other folder, outside the data folder's 0700.
 */
const MAX_SOCKET_PATH_BYTES = process.platform === 'darwin' ? 103 : 107

/** Where the app listens for this data folder's hooks; null when that path is too long for a socket. */
export function hookSocketPath(dataDir: string): string | null {
  const path = join(dataDir, HOOK_SOCKET_FILE)
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH_BYTES ? path : null
}

/** What a hook sends: what `retrace checkpoint begin|end --hook AGENT` would read in its own process. */
export interface HandoffRequest {
  version: typeof HANDOFF_VERSION
  agent: string
  phase: 'begin' | 'end'
  /** The agent's JSON from stdin (null when none came or it did not parse). */
  payload: unknown
  /** The hook's working folder. */
  cwd: string
  /** The project folder the agent names in the environment (hook-payload.ts). */
  env: Partial<Record<'CLAUDE_PROJECT_DIR' | 'GEMINI_PROJECT_DIR', string>>
}

/** The app's replies, in order: `accepted` then `answer` (what to print for the agent), or `refused` alone. */
export type HandoffReply = { accepted: true } | { answer: string | null } | { refused: string }
