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

  // Bash calls of real Claude Code sessions (fixtures/claude-code, fixtures/conformance) that
  // only read, yet were counted as shell commands not captured.
  it.each([
    'pwd && git status && git branch --show-current',
    'git -C -experiments/worktrees/.claude/worktrees/agent-a4ca7529 branch --show-current && git -C -experiments/worktrees/.claude/worktrees/agent-a4ca7529 log --oneline -5',
    'bash -n spotter-plugin/scripts/lib/trace_context.sh && echo "✓ trace_context.sh OK"',
    'claude --help 2>/dev/null | head -100',
    'claude --version',
    'coderabbit-extract --help 2>&1 | grep -A 15 "EXAMPLES:"',
    'gh api --help 2>&1 | grep -A 10 "graphql --paginate"',
    'gh api graphql --help 2>&1 | head -30',
    'curl -s "https://search.hexdocs.pm/?q=setup&filter_by=package:=[opentelemetry_bandit-0.3.0]" | jq \'.hits[0:5] | .[] | {title, doc}\' | head -40'
  ])('real, read-only: %s', (command) => {
    expect(isReadOnlyCommand(command)).toBe(true)
  })

  it.each([
    'curl -sO https://example.com/a.tar.gz',
    'curl -o out.html https://example.com',
    'curl -c cookies.txt https://example.com',
    './deploy.sh --help',
    'npm install --help me',
    'bash script.sh',
    'bash -c "rm a"',
    'git branch --show-current new'
  ])('%s may still write', (command) => {
    expect(isReadOnlyCommand(command)).toBe(false)
  })
})
