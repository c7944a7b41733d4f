import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'

test('Connect agents: install Claude Code\'s hooks from the window, see the turn they capture and a failed run, uninstall', async ({ page, consoleErrors }, testInfo) => {
  const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-connect-'))
  const home = join(root, 'home')
  const data = join(root, 'data')
  const project = join(root, 'project')
  mkdirSync(join(home, '.claude'), { recursive: true })
  mkdirSync(project)
  const workspace = realpathSync(project)
  const settings = '{\n  "model": "sonnet",\n  "permissions": {\n    "allow": ["Bash(npm test)"]\n  }\n}\n'
  writeFileSync(join(home, '.claude/settings.json'), settings)
  writeFileSync(join(workspace, 'README.md'), '# shop\n')
  const server = await startRetraceServer([], { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') }, { dataDir: data })
  try {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openPath(workspace)
    const view = new WorkspaceView(page)
    await view.root.waitFor()

    await page.getByTestId('workspace-menu').locator('summary').click()
    await page.getByTestId('connect-agents-open').click()
    const dialog = page.getByTestId('connect-agents-dialog')
    const claude = dialog.getByTestId('agent-claude-code')
    await expect(claude.getByTestId('agent-claude-code-state')).toHaveText('Not connected')
    await expect(claude.getByTestId('agent-claude-code-hooks')).toContainText('UserPromptSubmit → begin, Stop → end: not installed')
    await expect(claude.getByTestId('agent-claude-code-command')).toContainText(`bin/retrace.js hooks install --agent claude-code --data-dir ${data}`)
    await expect(dialog.getByTestId('agent-codex')).toContainText('open /hooks in Codex')

    await claude.getByTestId('agent-claude-code-install').click()
    await expect(claude.getByTestId('agent-claude-code-state')).toHaveText('Connected')
    await expect(claude.getByTestId('agent-claude-code-outcome')).toContainText(`${join(home, '.claude/settings.json')}: UserPromptSubmit hook added (checkpoint begin); Stop hook added (checkpoint end). Backup: `)
    await expect(claude.getByTestId('agent-claude-code-mcp')).toContainText(`registered in ${join(home, '.claude/.claude.json')} (every project)`)
    const written = JSON.parse(readFileSync(join(home, '.claude/settings.json'), 'utf8')) as { model: string; hooks: Record<string, { hooks: { command: string }[] }[]> }
    expect(written.model).toBe('sonnet')
    const begin = written.hooks.UserPromptSubmit?.[0]?.hooks[0]?.command ?? ''
    const end = written.hooks.Stop?.[0]?.hooks[0]?.command ?? ''
    expect(begin).toContain(`checkpoint begin --hook claude-code --data-dir ${data}`)

    // Claude Code runs the hooks: a turn that adds a file, then a run whose folder is gone.
    const runHook = (command: string, input: unknown) => spawnSync('env', ['-i', 'PATH=/usr/bin:/bin', 'sh', '-c', command], { cwd: root, input: JSON.stringify(input), encoding: 'utf8' })
    expect(runHook(begin, { session_id: 'a1b2c3d4-0000-4000-8000-000000000001', cwd: workspace, hook_event_name: 'UserPromptSubmit', prompt: 'add a changelog' }).status).toBe(0)
    writeFileSync(join(workspace, 'CHANGELOG.md'), '## 1.0\n')
    expect(runHook(end, { session_id: 'a1b2c3d4-0000-4000-8000-000000000001', cwd: workspace, hook_event_name: 'Stop' }).status).toBe(0)
    expect(runHook(begin, { session_id: 'a1b2c3d4-0000-4000-8000-000000000002', cwd: join(root, 'moved-away'), hook_event_name: 'UserPromptSubmit', prompt: 'next' }).status).toBe(0)
    // The hooks handed their turn to this server (hooks.sock in its data folder), which says so.
    await expect(claude.getByTestId('agent-claude-code-last-capture')).toContainText(`turn 1, 1 file changed in ${workspace}`, { timeout: 15_000 })
    await expect(claude.getByTestId('agent-claude-code-last-capture')).toContainText('captured by the running app')
    await expect(claude.getByTestId('agent-claude-code-last-error')).toContainText(`(begin in ${join(root, 'moved-away')}):`)
    await snapshot(page, testInfo, '128-connect-agents')

    await expect(claude.getByTestId('agent-claude-code-command')).toContainText('hooks uninstall --agent claude-code')
    await page.setViewportSize({ width: 1024, height: 760 })
    await claude.getByTestId('agent-claude-code-last-capture').scrollIntoViewIfNeeded()
    await snapshot(page, testInfo, '153-connect-agents-captured-by-app-1024')
    await dialog.getByTestId('agent-codex').scrollIntoViewIfNeeded()
    await expect(dialog.getByTestId('agent-codex-state')).toHaveText('Not connected')
    await snapshot(page, testInfo, '129-connect-agents-1024')
    await page.emulateMedia({ colorScheme: 'dark' })
    await claude.scrollIntoViewIfNeeded()
    await expect(claude).toBeVisible()
    await snapshot(page, testInfo, '130-connect-agents-dark-1024')

    await claude.getByTestId('agent-claude-code-uninstall').click()
    await expect(claude.getByTestId('agent-claude-code-state')).toHaveText('Not connected')
    expect(readFileSync(join(home, '.claude/settings.json'), 'utf8')).toBe(settings)
    await page.getByTestId('connect-agents-close').click()
    // The captured turn is a session of the workspace.
    await expect(view.sessionRows.filter({ hasText: 'add a changelog' })).toHaveCount(1)
    expect(consoleErrors).toEqual([])
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
})
