import { displayPath, type RelPath } from '../../fs/paths'

/**
 * Files that run code without anyone asking, or that grant access to the account: a rewind
 * of a history this machine did not record (an import) writes them only after the user
 * confirms each by name (see provenance.ts). The names match at any depth and ignore case:
 * a dotfiles repository is linked from the home folder (~/.bashrc → ~/dotfiles/.bashrc), and
 * macOS and Windows disks ignore case.
 *
 * Not listed on purpose: source and build files (Makefile, package.json, setup.py…). They run
 * code too, but only when the user builds, and changing them is what a rewind is for. Listed
 * are files that act on their own: at login or in every new shell, when a folder is opened or
 * entered, on every commit, in CI with the repository's secrets, or by granting a login.
 */
const FOLDERS = table({
  '.ssh': 'grants access (SSH keys and logins)',
  '.gnupg': 'grants access (GnuPG keys)',
  '.aws': 'runs code or grants access (AWS credentials and credential_process)',
  '.kube': 'runs code or grants access (Kubernetes credentials and exec plugins)',
  '.husky': 'runs code (a git hook)',
  '.githooks': 'runs code (a git hook)',
  autostart: 'runs code at login (an autostart entry)',
  launchagents: 'runs code at login (a macOS launch agent)',
  launchdaemons: 'runs code at startup (a macOS launch daemon)'
})

/** Two folders in a row, anywhere in the path. */
const FOLDER_PAIRS = table({
  '.config/fish': 'runs code in every new shell (fish configuration)',
  '.config/systemd': 'runs code at login (a systemd user unit)',
  '.config/environment.d': 'runs code at login (the session environment)',
  '.config/git': 'runs code (git configuration)',
  '.github/workflows': 'runs code in CI with the repository\'s secrets (a GitHub workflow)',
  'programs/startup': 'runs code at login (the Windows Startup folder)'
})

/** A file name, anywhere. */
const NAMES = table({
  '.bashrc': 'runs code in every new shell (a shell start file)',
  '.bash_profile': 'runs code at login (a shell start file)',
  '.bash_login': 'runs code at login (a shell start file)',
  '.bash_logout': 'runs code at logout (a shell start file)',
  '.profile': 'runs code at login (a shell start file)',
  '.zshrc': 'runs code in every new shell (a shell start file)',
  '.zshenv': 'runs code in every new shell (a shell start file)',
  '.zprofile': 'runs code at login (a shell start file)',
  '.zlogin': 'runs code at login (a shell start file)',
  '.zlogout': 'runs code at logout (a shell start file)',
  '.login': 'runs code at login (a shell start file)',
  '.logout': 'runs code at logout (a shell start file)',
  '.cshrc': 'runs code in every new shell (a shell start file)',
  '.tcshrc': 'runs code in every new shell (a shell start file)',
  '.kshrc': 'runs code in every new shell (a shell start file)',
  'config.fish': 'runs code in every new shell (fish configuration)',
  '.xprofile': 'runs code at login (an X session file)',
  '.xinitrc': 'runs code at login (an X session file)',
  '.xsession': 'runs code at login (an X session file)',
  '.xsessionrc': 'runs code at login (an X session file)',
  '.pam_environment': 'runs code at login (the login environment)',
  '.envrc': 'runs code when a shell enters the folder (direnv)',
  '.gitconfig': 'runs code (git configuration: hooks path, ssh command, filters)',
  '.npmrc': 'runs code or grants access (npm configuration and tokens)',
  '.yarnrc': 'runs code (yarn configuration)',
  '.yarnrc.yml': 'runs code (yarn configuration: yarnPath)',
  '.pre-commit-config.yaml': 'runs code on every commit (pre-commit hooks)',
  'lefthook.yml': 'runs code on every commit (lefthook git hooks)',
  '.lefthook.yml': 'runs code on every commit (lefthook git hooks)',
  '.gitlab-ci.yml': 'runs code in CI with the repository\'s secrets (GitLab CI)',
  '.vimrc': 'runs code when the editor starts (vim configuration)',
  '.exrc': 'runs code when the editor opens the folder (vi configuration)',
  '.nvimrc': 'runs code when the editor opens the folder (neovim configuration)',
  '.nvim.lua': 'runs code when the editor opens the folder (neovim configuration)',
  '.tmux.conf': 'runs code when tmux starts (tmux configuration)',
  authorized_keys: 'grants access (SSH logins)'
})

/** A folder and a file name in a row. */
const FILES_IN_FOLDER = table({
  '.vscode/tasks.json': 'runs code when the folder is opened (VS Code tasks)',
  '.vscode/settings.json': 'runs code (VS Code settings: interpreters, terminal, tool paths)',
  '.docker/config.json': 'runs code or grants access (Docker credential helpers)'
})

/** A Map, so that no name ("constructor"…) finds something an object inherits. */
function table(entries: Record<string, string>): ReadonlyMap<string, string> {
  return new Map(Object.entries(entries))
}

/**
 * Why a workspace file runs code or grants access, as a phrase ending with its path
 * ("runs code in every new shell (a shell start file): .bashrc"), or null for an ordinary file.
 */
export function sensitiveReason(path: RelPath): string | null {
  const segments = path.toString('utf8').toLowerCase().split('/') // one decode per path: a large rewind vets thousands
  const name = segments.at(-1) ?? ''
  const why =
    NAMES.get(name) ??
    (segments.length >= 2 ? FILES_IN_FOLDER.get(`${segments.at(-2) ?? ''}/${name}`) : undefined) ??
    segments.slice(0, -1).map((folder) => FOLDERS.get(folder)).find((reason) => reason !== undefined) ??
    segments.slice(0, -2).map((folder, i) => FOLDER_PAIRS.get(`${folder}/${segments[i + 1] ?? ''}`)).find((reason) => reason !== undefined)
  return why ? `${why}: ${displayPath(path)}` : null
}
