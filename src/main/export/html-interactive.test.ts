import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ClaudeHome, FIXTURES } from '../sources/testing/claude-home'
import { contractCaller, importTestbed } from '../sources/testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-export-cards-')

// Real Claude Code sessions (see each set's PROVENANCE.txt), imported as a user would.
const PROJECTS = [
  { dir: 'claude-code/claude-code-log/-Users-dain-workspace-coderabbit-review-helper', cwd: '/Users/dain/workspace/coderabbit-review-helper' },
  { dir: 'claude-code/claude-code-log-turns/-src-deep-manifest', cwd: '/src/deep-manifest' }
]

async function exportedHtml(project: (typeof PROJECTS)[number]): Promise<string> {
  const home = new ClaudeHome(join(tempDir(), 'claude'))
  home.addFixtureProject(join(FIXTURES, project.dir), project.cwd)
  const rt = runtime({ claude: home.root })
  const call = contractCaller(rt)
  const workspaceId = rt.store.workspaces.open(project.cwd, 'ws')
  await call('imports.run', { workspaceId })
  const [session] = (await call('sessions.list', { workspaceId })).items
  if (!session) throw new Error(`no session imported from ${project.dir}`)
  const page = await call('export.render', { sessionId: session.id, format: 'html', redact: false })
  return page.content
}

/** The `<details>` of each tool call named `tool` in the page. */
const blocksOf = (html: string, tool: string): string[] => [...html.matchAll(/<details class="m tool[^"]*"[^>]*>[\s\S]*?<\/details>/g)].map((m) => m[0]).filter((block) => block.includes(`>${tool}<`))

describe('Claude Code questions, plans and checklists in the HTML export', () => {
  it('shows a plan the user sent back as "not approved" with their words and the plan as Markdown, not as a field marked error', async () => {
    const html = await exportedHtml(PROJECTS[0] as (typeof PROJECTS)[number])
    const [rejected, approved] = blocksOf(html, 'ExitPlanMode')
    expect(rejected).toContain('not approved')
    expect(rejected).not.toContain('class="err"')
    expect(rejected).toContain('<h2>Plan: Make Project Installable as UV Tool</h2>')
    expect(rejected).toContain("Let's keep the name of the py file but change the pyproject script to reference it, otherwise gtg")
    expect(approved).toContain('>approved<')
  })

  it('shows AskUserQuestion as its questions with the answers, and TodoWrite as a checklist', async () => {
    const html = await exportedHtml(PROJECTS[1] as (typeof PROJECTS)[number])
    const [asked] = blocksOf(html, 'AskUserQuestion')
    expect(asked).toContain('>answered<')
    expect(asked).toContain('Which tar formats should be supported?')
    expect(asked).toMatch(/class="opt chosen"[^>]*>[\s\S]*?Yes, both filesystem and embedded/)
    expect(asked).toMatch(/class="answer"[\s\S]*?Also \.tgz/)
    expect(asked).not.toContain('<dt>questions</dt>')
    const [todos] = blocksOf(html, 'TodoWrite')
    expect(todos).toMatch(/<ul class="todos">/)
    expect(todos).toMatch(/<li class="todo (pending|in_progress|completed)">/)
    expect(todos).not.toContain('<dt>todos</dt>')
  })
})
