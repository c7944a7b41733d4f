import { realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { posix, win32 } from 'node:path'

/**
 * Folders that are never a workspace. A workspace is where a rewind writes, and a history's
 * recorded folder (`cwd`) becomes one on import: a hostile history whose cwd is the home folder
 * or `/` could otherwise have a rewind write `.ssh/authorized_keys` or files under `etc/`.
 *
 * Refused: the root of a disk; the home folder and every folder that contains it; the home's
 * folders of login settings (~/.ssh, ~/.config, ~/Library/LaunchAgents…); and the system's
 * folders. "Tree" entries refuse everything below them too (nobody keeps a project in /etc);
 * the others only the folder itself (/opt/app, /var/www/site, /usr/local/src/x are projects).
 */
const POSIX = {
  trees: [
    '/etc', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/boot', '/dev', '/proc', '/sys', '/run',
    '/usr/bin', '/usr/sbin', '/usr/lib', '/usr/lib32', '/usr/lib64', '/usr/libexec', '/usr/include', '/usr/share',
    '/usr/local/bin', '/usr/local/sbin', '/usr/local/lib', '/usr/local/etc',
    '/var/lib', '/var/log', '/var/spool', '/var/cache', '/var/mail', '/var/run', '/var/db',
    '/System', '/Library', '/private/etc', '/private/var/db', '/private/var/root'
  ],
  folders: ['/usr', '/usr/local', '/var', '/var/tmp', '/opt', '/srv', '/mnt', '/media', '/tmp', '/root', '/home', '/Users', '/Volumes', '/Applications', '/private', '/private/var', '/private/tmp', '/snap'],
  homeTrees: ['.ssh', '.gnupg', '.config/autostart', '.config/systemd', '.config/environment.d', '.config/fish', 'Library/LaunchAgents', '.local/bin'],
  homeFolders: ['.config', '.local', '.local/share', 'Library', 'Library/Application Support']
}

const WINDOWS = {
  trees: ['Windows', 'Program Files', 'Program Files (x86)', 'ProgramData'],
  folders: ['Users'],
  homeTrees: ['.ssh', 'AppData/Roaming/Microsoft/Windows/Start Menu'],
  homeFolders: ['AppData', 'AppData/Roaming', 'AppData/Local']
}

export interface ProtectedFolderOptions {
  /** Home folders besides this process's (an importer's HOME). */
  homes?: readonly (string | undefined)[]
  platform?: NodeJS.Platform
}

/**
 * Why `folder` must never be a workspace, as a sentence naming it and saying what to do, or null.
 * Checked as given and with links resolved (a link to the home folder is the home folder).
 */
export function whyNotAWorkspace(folder: string, options: ProtectedFolderOptions = {}): string | null {
  const platform = options.platform ?? process.platform
  const paths = platform === 'win32' ? win32 : posix
  const shown = JSON.stringify(folder)
  if (!paths.isAbsolute(folder)) return `Retrace does not use ${shown} as a workspace: it is not an absolute folder path on this computer.`
  const homes = [homedir(), ...(options.homes ?? [])].filter((home): home is string => !!home && paths.isAbsolute(home)).flatMap((home) => forms(home, paths))
  for (const form of forms(folder, paths)) {
    const why = whyProtected(form, homes, platform, paths)
    if (why) return `Retrace does not use ${shown} as a workspace: it is ${why}. A rewind there could change files that control your account or the system; open the project folder inside it instead.`
  }
  return null
}

/**
 * whyNotAWorkspace as judged for a history imported under `env` (its HOME is a home folder too,
 * as for agents run in a container as root): the rule every workspace and import check shares.
 */
export function whyNotAWorkspaceFor(folder: string, env: NodeJS.ProcessEnv): string | null {
  return whyNotAWorkspace(folder, { homes: [env.HOME] })
}

/** The folder as written (normalized) and, when it exists, with every link resolved. */
function forms(folder: string, paths: typeof posix): string[] {
  const lexical = paths.resolve(folder)
  try {
    const real = realpathSync.native(lexical)
    return real === lexical ? [lexical] : [lexical, real]
  } catch {
    return [lexical]
  }
}

function whyProtected(folder: string, homes: string[], platform: NodeJS.Platform, paths: typeof posix): string | null {
  // macOS and Windows disks ignore case: /ETC is /etc there.
  const fold = platform === 'darwin' || platform === 'win32' ? (text: string) => text.toLowerCase() : (text: string) => text
  const key = fold(folder)
  const same = (other: string) => fold(other) === key
  const below = (parent: string) => fold(parent.endsWith(paths.sep) ? parent : parent + paths.sep)
  const within = (parent: string) => same(parent) || key.startsWith(below(parent))
  if (paths.parse(folder).root === folder) return 'the root of a disk'
  for (const home of homes) {
    if (same(home)) return 'your home folder'
    if (fold(home).startsWith(below(folder))) return `a folder that contains your home folder (${home})`
  }
  const lists = platform === 'win32' ? WINDOWS : POSIX
  for (const home of homes) {
    const inHome = (relative: string) => paths.join(home, relative)
    const tree = lists.homeTrees.map(inHome).find(within)
    if (tree) return `where your account's settings live (${tree})`
    const folderOfHome = lists.homeFolders.map(inHome).find(same)
    if (folderOfHome) return `where your account's settings live (${folderOfHome})`
  }
  const onDisk = (relative: string) => (platform === 'win32' ? paths.join(paths.parse(folder).root, relative) : relative)
  const system = lists.trees.map(onDisk).find(within) ?? lists.folders.map(onDisk).find(same)
  return system ? `a system folder (${system})` : null
}
