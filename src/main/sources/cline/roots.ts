import { homedir } from 'node:os'
import { join } from 'node:path'

/** The VS Code extension ids (globalStorage folders are named by the lower-cased id). */
export const EXTENSION_IDS = ['saoudrizwan.claude-dev', 'rooveterinaryinc.roo-cline', 'kilocode.kilo-code'] as const

/** Editors built on VS Code whose user folder has the same `User/globalStorage/` layout. */
const EDITORS = ['Code', 'Code - Insiders', 'VSCodium', 'Cursor', 'Windsurf']

/**
 * Where Cline, Roo Code and Kilo Code keep their tasks (`<root>/tasks/<task-id>/`): each
 * extension's VS Code global storage (`context.globalStorageUri`) in every VS Code-like editor's
 * user folder (Linux `$XDG_CONFIG_HOME` or `~/.config`, macOS `~/Library/Application Support`,
 * Windows `%APPDATA%`), a remote server's (`~/.vscode-server/data`), and the Cline CLI's data
 * folder (`$CLINE_DATA_DIR`, else `$CLINE_DIR/data`, default `~/.cline/data`: tasks/ and Cline 4's sessions/). `RETRACE_CLINE_DIRS` (path-list) replaces
 * them all, for stores copied elsewhere.
 */
export function clineRoots(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string[] {
  const configured = env.RETRACE_CLINE_DIRS?.trim()
  if (configured) return configured.split(platform === 'win32' ? ';' : ':').filter(Boolean)
  const home = env.HOME ?? env.USERPROFILE ?? homedir()
  const userFolders = EDITORS.map((editor) => join(editorConfigBase(env, platform, home), editor, 'User'))
  userFolders.push(join(home, '.vscode-server', 'data', 'User'), join(home, '.vscode-remote', 'data', 'User'))
  const roots = userFolders.flatMap((user) => EXTENSION_IDS.map((id) => join(user, 'globalStorage', id)))
  // Cline's own resolver (`resolveDataDirFromEnv`): CLINE_DATA_DIR, else CLINE_DIR/data, else ~/.cline/data.
  const dataDir = env.CLINE_DATA_DIR?.trim()
  const clineDir = env.CLINE_DIR?.trim()
  roots.push(dataDir ? dataDir : join(clineDir ? clineDir : join(home, '.cline'), 'data'))
  return roots
}

function editorConfigBase(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  if (platform === 'win32') return env.APPDATA ?? join(home, 'AppData', 'Roaming')
  if (platform === 'darwin') return join(home, 'Library', 'Application Support')
  return env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : join(home, '.config')
}

/** Which agent wrote a root, for the session's title note: by the extension folder's name. */
export function agentOf(root: string): string {
  const lower = root.toLowerCase()
  if (lower.includes('rooveterinaryinc.roo-cline')) return 'Roo Code'
  if (lower.includes('kilocode.kilo-code')) return 'Kilo Code'
  return 'Cline'
}
