import { cpSync, existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { encodeProjectFolder } from '../claude-code/project-folder'
import { ClaudeHome, FIXTURES } from './claude-home'

/** The folders the real fixture histories recorded as their cwd; none of them is on this computer. */
export const RECORDED = {
  /** fixtures/claude-code/spotter/projects-dir: one session (Edit/Write, compaction) and two sub-agents. */
  spotter: '/home/USER/projects/spotter-worktrees/spotter-4te',
  /** fixtures/claude-code/codemie: one session (3 Write, 1 Edit, a shell rm) and two loose agent files. */
  codemie: '/tmp/private',
  /** fixtures/codex/codemie: real Codex rollouts recorded on macOS. */
  codexApp: '/Users/Sample_User/repos/codemie-ai/codemie-code',
  codexNaya: '/Users/Sample_User/naya',
  codexOld: '/Users/Nikita_Levyankov/repos/EPMCDME/codemie-ai/codemie-code'
} as const

export const SPOTTER_SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'

const REAL_ROLLOUTS = [
  '2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl',
  '2026/05/11/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl',
  '2026/01/02/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl'
]

/**
 * A `~/.claude` and a `~/.codex` copied from other computers (cp gives every file the copy's
 * time), holding real histories whose folders are not here: `CLAUDE_CONFIG_DIR` and `CODEX_HOME`.
 */
export function copiedHistories(root: string): { claude: string; codex: string } {
  const stillThere = Object.values(RECORDED).filter((path) => existsSync(path))
  if (stillThere.length > 0) throw new Error(`These tests need folders that do not exist, but ${stillThere.join(', ')} exists on this computer.`)
  const claude = new ClaudeHome(join(root, 'claude'))
  claude.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), RECORDED.spotter)
  claude.addFixtureProject(join(FIXTURES, 'claude-code/codemie/-tmp-private'), RECORDED.codemie)
  const codex = join(root, 'codex')
  for (const rollout of REAL_ROLLOUTS) {
    const to = join(codex, 'sessions', rollout)
    mkdirSync(join(to, '..'), { recursive: true })
    cpSync(join(FIXTURES, 'codex/codemie/sessions', rollout), to)
  }
  return { claude: claude.root, codex }
}

/** The latest `timestamp` on any line of the files (read whole: the answer the listing's tail read must match). */
export function latestTimestamp(texts: string[]): number {
  let latest = 0
  for (const text of texts) {
    for (const match of text.matchAll(/"timestamp":"([^"]+)"/g)) latest = Math.max(latest, Date.parse(match[1] ?? '') || 0)
  }
  return latest
}

/** A file of the copied spotter project folder (its session is `${SPOTTER_SESSION}.jsonl`). */
export const spotterFile = (claudeRoot: string, name: string): string => join(claudeRoot, 'projects', encodeProjectFolder(RECORDED.spotter), name)
