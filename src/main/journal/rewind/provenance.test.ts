import { describe, expect, it } from 'vitest'
import type { FileVersion } from '../../store/repositories/journal'
import { keyOf, type RelPath } from '../../fs/paths'
import type { ScannedFile } from '../scan/types'
import { tempRuntime } from '../../testing/temp-runtime'
import { vetTargets } from './provenance'
import { SENSITIVE_CLASSES, sensitiveClassOf, sensitiveReason, type SensitiveClassId } from './sensitive-paths'

const rel = (path: string) => Buffer.from(path) as RelPath

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Several members of each class, at the places they act from, in any case. */
const MEMBERS: Record<SensitiveClassId, string[]> = {
  'shell-startup': ['.bashrc', 'dotfiles/bash/.bash_profile', '.bash_aliases', '.profile', '.zshrc', '.zshenv', '.zprofile', '.login', '.config/fish/functions/ls.fish', 'fish/config.fish', '.config/zsh/.zshrc', '.bashrc.d/10-path.sh', 'Documents/PowerShell/Microsoft.PowerShell_profile.ps1'],
  'login-session': ['.config/autostart/updater.desktop', '.config/openbox/autostart', '.config/lxsession/LXDE/autostart', '.kde/Autostart/run.sh', 'Library/LaunchAgents/com.example.plist', '.config/systemd/user/x.service', '.xprofile', '.xinitrc', '.config/i3/config', 'AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup/run.bat'],
  'folder-entry': ['.envrc', 'sub/.envrc', 'mise.toml', '.mise.toml', '.config/mise/config.toml'],
  'agent-config': ['.claude/settings.json', '.claude/settings.local.json', '.claude/hooks/format.sh', '.mcp.json', '.gemini/settings.json', '.cursor/hooks.json', '.cursor/mcp.json', '.github/hooks/pre-tool.json', '.codex/config.toml', '.vscode/mcp.json', '.aider.conf.yml', '.kiro/hooks/on-save.kiro.hook', 'opencode.json'],
  'editor-startup': ['.config/nvim/init.lua', '.vimrc', '.exrc', '.nvim.lua', 'project.code-workspace', '.devcontainer/devcontainer.json', '.devcontainer.json', '.vscode/tasks.json', '.vscode/settings.json', '.config/Code/User/settings.json', '.emacs.d/init.el', '.dir-locals.el'],
  'tool-startup': ['.gdbinit', 'src/.gdbinit', '.lldbinit', '.pdbrc', '.irbrc', '.psqlrc', '.Rprofile', '.ipython/profile_default/startup/00.py', '.tmux.conf'],
  'python-startup': ['.venv/lib/python3.12/site-packages/evil.pth', 'site-packages/x.pth', 'sitecustomize.py', 'lib/usercustomize.py'],
  'package-manager': ['.npmrc', '.yarnrc.yml', '.yarn/plugins/plugin.cjs', '.pnpmfile.cjs', 'bunfig.toml', '.cargo/config.toml', '.mvn/extensions.xml', '.gradle/init.d/x.gradle'],
  'vcs-hooks': ['.husky/pre-commit', '.githooks/pre-push', '.pre-commit-config.yaml', 'lefthook.yml', '.gitconfig', '.config/git/config', '.hgrc', '.config/jj/config.toml'],
  ci: ['.github/workflows/ci.yml', '.github/actions/setup/action.yml', '.gitlab-ci.yml', '.circleci/config.yml', 'Jenkinsfile', 'azure-pipelines.yml', '.buildkite/pipeline.yml'],
  'account-access': ['.ssh/authorized_keys', '.ssh/config', 'home/.SSH/id_ed25519', 'authorized_keys', '.k5login', '.rhosts', '.netrc', '.git-credentials', '.aws/config', '.kube/config', '.docker/config.json', '.gnupg/gpg-agent.conf'],
  'mail-delivery': ['.forward', 'home/.forward', '.procmailrc', '.qmail']
}

describe('files that run code, grant access or configure an agent', () => {
  it.each(SENSITIVE_CLASSES.map((found) => [found.id, found.reason] as const))('class %s: every member says "%s" (R23)', (id, reason) => {
    const members = MEMBERS[id]
    expect(members.length, id).toBeGreaterThanOrEqual(4)
    for (const path of members) {
      expect(sensitiveClassOf(rel(path))?.id, path).toBe(id)
      expect(sensitiveReason(rel(path)), path).toMatch(new RegExp(`^${escaped(reason)}: ${escaped(path)}$`))
    }
  })

  it('says what each class does, as the preview shows it', () => {
    expect(sensitiveReason(rel('.bashrc'))).toBe('runs code when a shell starts (a shell start-up file): .bashrc')
    expect(sensitiveReason(rel('.claude/settings.json'))).toBe('configures an AI agent (its hooks, tool servers and permissions run commands): .claude/settings.json')
    expect(SENSITIVE_CLASSES.every((found) => /^(runs code|grants access|configures an AI agent) /.test(found.reason))).toBe(true)
  })

  it('leaves ordinary files alone: source and build files, text an agent reads, names that only look alike', () => {
    const ordinary = [
      'src/app.ts', 'Makefile', 'package.json', 'setup.py', 'conftest.py', 'CLAUDE.md', 'AGENTS.md', '.vscode/extensions.json', '.vscode/launch.json',
      '.github/CODEOWNERS', '.github/dependabot.yml', 'docs/ssh.md', 'constructor', 'toString/valueOf', '.env', 'autostart.md', 'workflows/ci.yml',
      'claude/settings.json', 'settings.json', 'config.toml', 'hooks/pre-commit', 'nvim/init.lua', 'forward.ts', '.gitignore', '.gitattributes',
      '.gitmodules', '.pth.md', 'docs/.pth'
    ]
    for (const path of ordinary) expect(sensitiveReason(rel(path)), path).toBeNull()
  })
})

describe('vetting a rewind\'s targets', () => {
  it('trusts a version the last scan recorded (path, content and exact mode), and only that; masks a foreign mode to 0o775 (R25)', () => {
    const rt = tempRuntime()
    try {
      const suid: FileVersion = { kind: 'file', hash: rt.journal.blobs.putBuffer(Buffer.from('#!/bin/sh\n')).hash, size: 10, mode: 0o4755 }
      const scanned = new Map<ReturnType<typeof keyOf>, ScannedFile>([[keyOf(rel('bin/own')), { path: rel('bin/own'), ...suid, mtimeNs: 0n, ctimeNs: 0n, ino: 0n }]])
      let looked: string[] = []
      const vetted = vetTargets(
        [
          { path: rel('bin/own'), target: suid, expected: null },
          { path: rel('bin/foreign'), target: suid, expected: null },
          { path: rel('bin/own-content-other-mode'), target: { ...suid, mode: 0o6755 }, expected: null },
          { path: rel('plain.txt'), target: { ...suid, mode: 0o644 }, expected: null },
          { path: rel('world-writable.sh'), target: { ...suid, mode: 0o777 }, expected: null },
          { path: rel('world-writable.txt'), target: { ...suid, mode: 0o666 }, expected: null }
        ],
        {
          blobs: rt.journal.blobs,
          scanned,
          unavailable: new Set(),
          root: Buffer.from(rt.store.dataDir),
          seenHere: (paths) => {
            looked = paths.map((path) => path.toString())
            return [{ path: rel('bin/own-content-other-mode'), version: { ...suid, mode: 0o4755 } }]
          }
        }
      )
      const mode = (path: string) => vetted.get(keyOf(rel(path)))?.target?.mode
      expect(mode('bin/own')).toBe(0o4755)
      expect(mode('bin/foreign')).toBe(0o755)
      expect(mode('bin/own-content-other-mode')).toBe(0o755) // seen here with another mode: not this version
      expect(mode('plain.txt')).toBe(0o644)
      expect(mode('world-writable.sh')).toBe(0o775) // write for everyone is not restored from a foreign history
      expect(mode('world-writable.txt')).toBe(0o664)
      // Only what matters is looked up: the scan answered for bin/own, an ordinary file needs no answer.
      expect(looked).toEqual(['bin/foreign', 'bin/own-content-other-mode', 'world-writable.sh', 'world-writable.txt'])
    } finally {
      rt.dispose()
    }
  })
})
