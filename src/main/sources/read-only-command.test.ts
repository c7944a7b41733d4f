import { describe, expect, it } from 'vitest'
import { isReadOnlyCommand } from './read-only-command'

describe('isReadOnlyCommand', () => {
  it.each([
    'ls -la',
    'cat src/a.ts',
    'grep -rn "foo > bar" src',
    'rg TODO',
    'git status',
    'git log --oneline -5',
    'git diff HEAD~1',
    'git -C ../other status',
    'git --no-pager log -p',
    'git branch -a',
    'find . -name "*.ts"',
    'cd src && ls',
    'cat a.txt | grep x | wc -l',
    'sudo cat /etc/hosts',
    'ls 2>&1',
    'grep x file 2>/dev/null || true',
    'FOO=1 git log',
    "sed -n '1,20p' file.ts",
    'sort -u names.txt',
    'head -5 a; tail -5 b'
  ])('%s only reads', (command) => {
    expect(isReadOnlyCommand(command)).toBe(true)
  })

  it.each([
    'npm test',
    'rm -rf build',
    'ls > listing.txt',
    'echo hi >> notes.md',
    'cat a 2> errors.log',
    'cat a &> all.log',
    'find . -name "*.tmp" -delete',
    'find . -exec rm {} \\;',
    "sed -i 's/a/b/' file.ts",
    "sed -i.bak 's/a/b/' file.ts",
    "sed --in-place 's/a/b/' f",
    "sed -n 's/a/b/w out.txt' f",
    'sort -o sorted.txt names.txt',
    'git checkout main',
    'git -C x commit -m wip',
    'git stash',
    'git branch -D old',
    'git diff --output=patch.diff',
    'ls && rm a',
    'cat a | tee b',
    'sudo -u root ls',
    'echo $(rm a)',
    'echo `touch a`',
    'cat <<EOF\nhi\nEOF',
    'diff <(ls a) <(ls b)',
    "echo 'unclosed",
    'cat a | xargs rm',
    'git'
  ])('%s may write', (command) => {
    expect(isReadOnlyCommand(command)).toBe(false)
  })
})
