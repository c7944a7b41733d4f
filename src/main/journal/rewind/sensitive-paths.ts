import { displayPath, type RelPath } from '../../fs/paths'

/**
 * Files that run code without anyone asking, grant access to the account, or configure a tool
 * that runs commands by itself (an AI agent, an editor, a package manager): a rewind of a
 * history this machine did not record (an import) writes them only after the person confirms
 * each by name (see provenance.ts). Each class says what its files do, in the words the preview
 * shows ("runs code when a shell starts (a shell start-up file): .bashrc").
 *
 * Patterns match at any depth and ignore case: a dotfiles repository is linked from the home
 * folder (~/.bashrc → ~/dotfiles/.bashrc), and macOS and Windows disks ignore case.
 *   `name`          a file of that name, in any folder
 *   `*.ext`         a file whose name ends so, in any folder
 *   `dir/`          anything inside a folder of that name
 *   `a/b/`          anything inside folder b, directly inside folder a
 *   `dir/name`      a file of that name, directly inside a folder of that name
 *
 * Not listed on purpose: source and build files (Makefile, package.json and its scripts,
 * setup.py, conftest.py, build.gradle, the Gradle and Maven wrappers' properties…). They run
 * code too, but only when the person builds, tests or installs, and changing them is what a
 * rewind is for: a confirmation for every package.json would teach people to confirm blindly.
 * Nor are files an agent only reads as text (CLAUDE.md, AGENTS.md, .cursor/rules are inside
 * their agent's folder, which is listed whole). Version-control metadata (.git, .hg/hgrc…) is
 * never written at all (fs/paths.ts).
 */
const CLASSES = [
  {
    id: 'shell-startup',
    reason: 'runs code when a shell starts (a shell start-up file)',
    patterns: [
      '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.bash_aliases', '.bashrc.d/', '.profile', '.shrc',
      '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.zlogout', '.config/zsh/', '.oh-my-zsh/custom/',
      '.login', '.logout', '.cshrc', '.tcshrc', '.kshrc', '.mkshrc',
      'config.fish', '.config/fish/', '.xonshrc', '.config/xonsh/', '.config/nushell/',
      '.config/powershell/', 'microsoft.powershell_profile.ps1', 'profile.ps1'
    ]
  },
  {
    id: 'login-session',
    reason: 'runs code at login (a session, autostart or service file)',
    patterns: [
      '.xprofile', '.xinitrc', '.xsession', '.xsessionrc', '.xserverrc', '.pam_environment', '.config/environment.d/',
      'autostart/', 'autostart', 'autostart.sh', '.config/autostart-scripts/', '.config/plasma-workspace/',
      '.config/systemd/', '.config/upstart/', 'launchagents/', 'launchdaemons/', 'programs/startup/',
      '.config/openbox/', '.config/i3/', '.i3/', '.config/sway/', '.config/hypr/', '.config/awesome/', '.xmonad/'
    ]
  },
  {
    id: 'folder-entry',
    reason: 'runs code when a shell enters the folder (direnv, mise)',
    patterns: ['.envrc', 'mise.toml', '.mise.toml', 'mise.local.toml', '.mise.local.toml', '.mise/', '.config/mise/', '.rtx.toml', '.autoenv.zsh']
  },
  {
    id: 'agent-config',
    reason: 'configures an AI agent (its hooks, tool servers and permissions run commands)',
    patterns: [
      '.claude/', '.mcp.json', 'claude_desktop_config.json', '.gemini/', '.codex/', '.cursor/', '.github/hooks/', '.vscode/mcp.json',
      '.copilot/', '.aider.conf.yml', '.clinerules/hooks/', '.kiro/', '.roo/', '.continue/', '.amazonq/', '.windsurf/', '.qwen/',
      '.opencode/', 'opencode.json', 'opencode.jsonc', '.crush.json', 'crush.json'
    ]
  },
  {
    id: 'editor-startup',
    reason: 'runs code when an editor starts or opens the folder (editor configuration)',
    patterns: [
      '.vscode/tasks.json', '.vscode/settings.json', '*.code-workspace', 'code/user/', 'cursor/user/', '.devcontainer/', '.devcontainer.json',
      '.vimrc', '.gvimrc', '_vimrc', '.exrc', '.nvimrc', '.nvim.lua', '.lazy.lua', '.vim/', '.config/nvim/',
      '.emacs', '.emacs.el', '.emacs.d/', '.dir-locals.el', '.dir-locals-2.el',
      '.zed/settings.json', '.helix/languages.toml', '.config/helix/'
    ]
  },
  {
    id: 'tool-startup',
    reason: 'runs code when a tool starts (a debugger, REPL or terminal start-up file)',
    patterns: [
      '.gdbinit', '.lldbinit', '.pdbrc', '.pythonrc', '.pythonrc.py', '.pythonstartup', '.ipython/', '.jupyter/', '.irbrc', '.pryrc',
      '.psqlrc', '.sqliterc', '.rprofile', '.mongoshrc.js', '.mongorc.js', '.tmux.conf', '.config/tmux/', '.screenrc', '.wezterm.lua', '.config/wezterm/'
    ]
  },
  {
    id: 'python-startup',
    // Python runs a .pth file's import lines from any folder added as a site directory
    // (site-packages, a --target folder, site.addsitedir), which a path alone cannot tell; a
    // PyTorch checkpoint named .pth costs one confirmation.
    reason: 'runs code whenever Python starts (a site start-up file)',
    patterns: ['*.pth', 'sitecustomize.py', 'usercustomize.py']
  },
  {
    id: 'package-manager',
    reason: 'runs code when a package manager or build tool runs here (its hooks, plugins or configuration)',
    patterns: [
      '.npmrc', '.yarnrc', '.yarnrc.yml', '.yarn/plugins/', '.yarn/releases/', '.pnpmfile.cjs', '.pnpmfile.mjs', '.bunfig.toml', 'bunfig.toml',
      '.cargo/config.toml', '.cargo/config', '.mvn/extensions.xml', '.mvn/jvm.config', '.gradle/init.d/', '.gradle/init.gradle', '.gradle/init.gradle.kts'
    ]
  },
  {
    id: 'vcs-hooks',
    reason: 'runs code on commits and other version-control commands (hooks and configuration)',
    patterns: [
      '.husky/', '.githooks/', '.git-hooks/', '.pre-commit-config.yaml', 'lefthook.yml', '.lefthook.yml', 'lefthook.yaml', '.lefthook.yaml',
      'lefthook-local.yml', '.lefthook-local.yml', '.overcommit.yml', '.gitconfig', '.config/git/', '.hgrc', 'mercurial.ini', '.config/hg/',
      '.config/jj/', '.subversion/', '.bazaar/', '.darcs/'
    ]
  },
  {
    id: 'ci',
    reason: "runs code in CI with the repository's secrets (a CI pipeline)",
    patterns: [
      '.github/workflows/', '.github/actions/', '.gitlab-ci.yml', '.gitlab/ci/', '.circleci/', '.travis.yml', 'azure-pipelines.yml', '.azure-pipelines/',
      'bitbucket-pipelines.yml', 'jenkinsfile', '.buildkite/', '.drone.yml', '.woodpecker.yml', '.woodpecker/', 'appveyor.yml', '.appveyor.yml',
      '.cirrus.yml', '.forgejo/workflows/', '.gitea/workflows/', 'buildspec.yml', 'cloudbuild.yaml', 'cloudbuild.yml', '.semaphore/'
    ]
  },
  {
    id: 'account-access',
    reason: 'grants access to the account (keys, logins or credentials)',
    patterns: [
      '.ssh/', 'authorized_keys', 'authorized_keys2', '.gnupg/', '.k5login', '.k5users', '.rhosts', '.shosts', '.netrc', '_netrc', '.git-credentials',
      '.pgpass', '.my.cnf', '.pypirc', '.aws/', '.kube/', '.azure/', '.config/gcloud/', '.docker/config.json', '.m2/settings.xml',
      '.gem/credentials', '.config/gh/', '.terraformrc', 'terraform.rc'
    ]
  },
  {
    id: 'mail-delivery',
    reason: 'runs code when mail arrives (mail forwarding or filters)',
    patterns: ['.forward', '.procmailrc', '.mailfilter', '.qmail', '.fetchmailrc']
  }
] as const satisfies readonly { id: string; reason: string; patterns: readonly string[] }[]

export type SensitiveClassId = (typeof CLASSES)[number]['id']
export interface SensitiveClass {
  id: SensitiveClassId
  reason: string
}

/** Every class, for the tests and anyone listing them. */
export const SENSITIVE_CLASSES: readonly SensitiveClass[] = CLASSES.map(({ id, reason }) => ({ id, reason }))

/** The patterns, indexed by their shape: a path is classified in a few Map lookups per segment (a large rewind vets thousands). */
const index = {
  names: new Map<string, SensitiveClass>(),
  suffixes: [] as [string, SensitiveClass][],
  folders: new Map<string, SensitiveClass>(),
  folderPairs: new Map<string, SensitiveClass>(),
  filesInFolder: new Map<string, SensitiveClass>()
}

/** Put one pattern in the table of its shape; a pattern of no known shape, or listed twice, is a mistake in this file. */
function addPattern(pattern: string, found: SensitiveClass): void {
  const folderOnly = pattern.endsWith('/')
  const parts = (folderOnly ? pattern.slice(0, -1) : pattern).split('/')
  if (!folderOnly && parts.length === 1 && pattern.startsWith('*.')) return void index.suffixes.push([pattern.slice(1), found])
  const table = (folderOnly ? [index.folders, index.folderPairs] : [index.names, index.filesInFolder])[parts.length - 1]
  const key = parts.join('/')
  if (!table || key.includes('*') || key !== key.toLowerCase()) throw new Error(`sensitive-paths.ts: ${JSON.stringify(pattern)} (${found.id}) is not a pattern this file reads`)
  if (table.has(key)) throw new Error(`sensitive-paths.ts: ${JSON.stringify(pattern)} is listed twice`)
  table.set(key, found)
}

for (const { id, reason, patterns } of CLASSES) for (const pattern of patterns) addPattern(pattern, { id, reason })

/** The class of a workspace file that runs code, grants access or configures an agent, or null for an ordinary file. */
export function sensitiveClassOf(path: RelPath): SensitiveClass | null {
  const segments = path.toString('utf8').toLowerCase().split('/') // one decode per path
  const name = segments.at(-1) ?? ''
  const folder = segments.length >= 2 ? (segments.at(-2) ?? '') : null
  const { names, suffixes, folders, folderPairs, filesInFolder } = index
  return (
    names.get(name) ??
    (folder !== null ? filesInFolder.get(`${folder}/${name}`) : undefined) ??
    suffixes.find(([suffix]) => name.endsWith(suffix) && name.length > suffix.length)?.[1] ??
    segments.slice(0, -1).map((parent) => folders.get(parent)).find((found) => found !== undefined) ??
    segments.slice(0, -2).map((parent, i) => folderPairs.get(`${parent}/${segments[i + 1] ?? ''}`)).find((found) => found !== undefined) ??
    null
  )
}

/**
 * Why a workspace file needs confirmation, as a phrase ending with its path ("runs code when a
 * shell starts (a shell start-up file): .bashrc"), or null for an ordinary file.
 */
export function sensitiveReason(path: RelPath): string | null {
  const found = sensitiveClassOf(path)
  return found ? `${found.reason}: ${displayPath(path)}` : null
}
