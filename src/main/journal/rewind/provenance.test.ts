import { describe, expect, it } from 'vitest'
import type { FileVersion } from '../../store/repositories/journal'
import { keyOf, type RelPath } from '../../fs/paths'
import type { ScannedFile } from '../scan/types'
import { tempRuntime } from '../../testing/temp-runtime'
import { leavesWorkspace, vetTargets } from './provenance'
import { sensitiveReason } from './sensitive-paths'

const rel = (path: string) => Buffer.from(path) as RelPath

describe('files that run code or grant access', () => {
  it('names them, at any depth and in any case, with what they do', () => {
    const sensitive = [
      '.ssh/authorized_keys',
      '.ssh/config',
      'home/.SSH/id_ed25519',
      '.bashrc',
      'dotfiles/bash/.bash_profile',
      '.profile',
      '.zshrc',
      '.zprofile',
      '.zshenv',
      '.login',
      '.config/fish/functions/ls.fish',
      'fish/config.fish',
      '.config/autostart/updater.desktop',
      'Library/LaunchAgents/com.example.plist',
      '.config/systemd/user/x.service',
      '.envrc',
      '.vscode/tasks.json',
      '.vscode/settings.json',
      '.github/workflows/ci.yml',
      '.husky/pre-commit',
      '.githooks/pre-push',
      '.gitconfig',
      '.npmrc',
      '.yarnrc.yml',
      '.pre-commit-config.yaml',
      '.gitlab-ci.yml',
      '.aws/config',
      '.kube/config',
      '.docker/config.json',
      'AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup/run.bat'
    ]
    for (const path of sensitive) expect(sensitiveReason(rel(path)), path).toMatch(new RegExp(`^(runs code|grants access).*: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`))
    expect(sensitiveReason(rel('.bashrc'))).toBe('runs code in every new shell (a shell start file): .bashrc')
    const ordinary = ['src/app.ts', 'Makefile', 'package.json', '.vscode/extensions.json', '.github/CODEOWNERS', 'docs/ssh.md', 'constructor', 'toString/valueOf', '.env', 'autostart.md', 'workflows/ci.yml']
    for (const path of ordinary) expect(sensitiveReason(rel(path)), path).toBeNull()
  })
})

describe('links that leave the workspace', () => {
  it('are absolute, climb out with .., or take a Windows form', () => {
    for (const [path, target] of [
      ['etc', '/etc'],
      ['docs/key', '../../.ssh/id_rsa'],
      ['a/b/c', '../../../x'],
      ['a/link', 'x/../../..'],
      ['win', 'C:\\Windows'],
      ['win2', '..\\..\\x'],
      ['top', '..']
    ]) {
      expect(leavesWorkspace(rel(path ?? ''), Buffer.from(target ?? '')), `${path} → ${target}`).toBe(true)
    }
    for (const [path, target] of [
      ['docs/readme', '../README.md'],
      ['a/b/c', '../../x'],
      ['self', '.'],
      ['a/sibling', 'b/../c']
    ]) {
      expect(leavesWorkspace(rel(path ?? ''), Buffer.from(target ?? '')), `${path} → ${target}`).toBe(false)
    }
  })
})

describe('vetting a rewind\'s targets', () => {
  it('trusts a version the last scan recorded (path, content and exact mode), and only that', () => {
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
          { path: rel('plain.txt'), target: { ...suid, mode: 0o644 }, expected: null }
        ],
        {
          blobs: rt.journal.blobs,
          scanned,
          unavailable: new Set(),
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
      // Only what matters is looked up: the scan answered for bin/own, an ordinary file needs no answer.
      expect(looked).toEqual(['bin/foreign', 'bin/own-content-other-mode'])
    } finally {
      rt.dispose()
    }
  })
})
