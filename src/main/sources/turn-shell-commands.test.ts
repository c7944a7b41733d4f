import { describe, expect, it } from 'vitest'
import { turnShellCommands, type ShellCandidate } from './turn-shell-commands'

const call = (seq: number, input: unknown, toolName = 'Bash'): ShellCandidate => ({ seq, role: 'tool_call', content: '', toolName, toolInput: JSON.stringify(input) })

describe('turnShellCommands', () => {
  it('lists the commands that may write, from Claude Code, Codex and ! prompts, not the read-only ones', () => {
    const messages: ShellCandidate[] = [
      call(1, { command: 'git status && git log --oneline -5', description: 'look' }),
      call(2, { command: 'git merge --no-ff alice/plan -m "merge"' }),
      call(3, { command: ['bash', '-lc', 'npm test'] }, 'shell'),
      call(4, { command: ['bash', '-lc', 'rg TODO'] }, 'shell'),
      call(5, { cmd: 'sed -i s/a/b/ f.txt' }, 'exec_command'),
      call(6, { file_path: '/x/a.ts' }, 'Write'),
      call(10, { command: 'commit' }, 'Skill'),
      { seq: 7, role: 'user', content: '! rm -rf build', toolName: null, toolInput: null },
      { seq: 8, role: 'user', content: 'please run the tests', toolName: null, toolInput: null },
      { seq: 9, role: 'tool_call', content: '', toolName: 'Bash', toolInput: 'not json' }
    ]
    expect(turnShellCommands(messages)).toEqual([
      { seq: 2, command: 'git merge --no-ff alice/plan -m "merge"' },
      { seq: 3, command: 'npm test' },
      { seq: 5, command: 'sed -i s/a/b/ f.txt' },
      { seq: 7, command: 'rm -rf build' }
    ])
  })
})
