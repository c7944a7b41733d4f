import { appendFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ClaudeHome, FIXTURES } from '../sources/testing/claude-home'
import { importTestbed } from '../sources/testing/import-testbed'
import { runCli } from './main'

const { tempDir } = importTestbed('retrace-doctor-')

/** A user's settings.json in the documented shape, with more than the one key Retrace writes. */
const SETTINGS = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "model": "opus",
  "permissions": {
    "allow": ["Bash(npm run lint)", "Read(~/.zshrc)"],
    "deny": ["Read(./.env)"]
  },
  "env": { "CLAUDE_CODE_ENABLE_TELEMETRY": "0" },
  "hooks": {
    "PostToolUse": [{ "matcher": "Edit|Write", "hooks": [{ "type": "command", "command": "retrace checkpoint end --workspace \\"$CLAUDE_PROJECT_DIR\\"" }] }]
  },
  "statusLine": { "type": "command", "command": "~/.claude/statusline.sh" }
}
`

async function cli(args: string[], env: NodeJS.ProcessEnv, dataDir: string): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli([...args, '--data-dir', dataDir], { out: (text) => out.push(text), err: (text) => err.push(text) }, env)
  return { code, out: out.join('\n'), err: err.join('\n') }
}

function setup(settings: string | null) {
  const home = new ClaudeHome(join(tempDir(), 'claude'))
  const file = join(home.root, 'settings.json')
  if (settings !== null) writeFileSync(file, settings)
  const env = { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: home.root, CODEX_HOME: '/nonexistent' }
  return { home, file, env, dataDir: join(tempDir(), 'data') }
}

describe('retrace doctor', () => {
  it('reports Claude Code\'s retention and the sessions kept after the agent deleted their files, as text and JSON', async () => {
    const { home, env, dataDir, file } = setup(SETTINGS.replace('"model": "opus",', '"model": "opus",\n  "cleanupPeriodDays": 14,'))
    const folder = home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), '/home/USER/projects/spotter')
    expect((await cli(['import', '--all', '--json'], env, dataDir)).code).toBe(0)
    renameSync(join(folder, 'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'), join(tempDir(), 'gone.jsonl'))
    const again = await cli(['import', '--all'], env, dataDir)
    expect(again.code).toBe(0)
    expect(again.out).toContain('1 imported file was deleted by its agent since: its sessions are kept, marked')

    const text = await cli(['doctor'], env, dataDir)
    expect(text.code).toBe(0)
    expect(text.out).toContain(`  Claude Code deletes a session 14 days after its last activity (${file})`)
    expect(text.out).toContain('  Codex CLI deletes nothing by age')
    expect(text.out).toMatch(/Claude Code: 1 session kept in Retrace after the agent deleted its file \(first found \d{4}-\d\d-\d\d\)/)
    expect(text.out).toContain('retrace doctor --set-claude-retention DAYS')

    const json = JSON.parse((await cli(['doctor', '--json'], env, dataDir)).out) as { retention: { source: string; deletesAfterDays: number | null; origin: string }[]; deletedByAgents: { source: string; sessions: number }[] }
    expect(json.retention.map(({ source, deletesAfterDays, origin }) => ({ source, deletesAfterDays, origin }))).toEqual([
      { source: 'claude-code', deletesAfterDays: 14, origin: 'user-settings' },
      { source: 'codex', deletesAfterDays: null, origin: 'agent-behaviour' }
    ])
    expect(json.deletedByAgents).toEqual([expect.objectContaining({ source: 'claude-code', sessions: 1 })])
  })

  it('says Claude Code\'s default of 30 days when no setting is there, and that nothing was deleted', async () => {
    const { env, dataDir } = setup(null)
    const text = await cli(['doctor'], env, dataDir)
    expect(text.out).toContain('Claude Code deletes a session 30 days after its last activity (its default)')
    expect(text.out).toContain('None: every imported session')
    expect(text.out).toContain('None: every record the agents wrote is of a kind Retrace reads')
  })

  it('counts records of kinds Retrace does not read, by agent version, with where the first one is', async () => {
    const { home, env, dataDir } = setup(null)
    const folder = home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), '/home/USER/projects/spotter')
    const file = join(folder, 'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl')
    const size = readFileSync(file).length
    appendFileSync(file, `${JSON.stringify({ type: 'brand_new', version: '2.9.0', uuid: 'n1' })}\n`.repeat(2))
    expect((await cli(['import', '--all'], env, dataDir)).out).toContain('Claude Code 2.9.0: 2 records of line type "brand_new" not read')
    const text = await cli(['doctor'], env, dataDir)
    expect(text.out).toContain(`  Claude Code 2.9.0: 2 records of line type "brand_new" not read (first in ${file} at byte ${size})`)
    const json = JSON.parse((await cli(['doctor', '--json'], env, dataDir)).out) as { unread: unknown[] }
    expect(json.unread).toEqual([{ source: 'claude-code', agentVersion: '2.9.0', what: 'line type "brand_new"', count: 2, example: { file, offset: size } }])
  })
})

describe('retrace doctor --set-claude-retention / --undo-claude-retention', () => {
  it('adds only cleanupPeriodDays, keeps a backup, and undo puts back the very bytes', async () => {
    const { file, env, dataDir } = setup(SETTINGS)
    const set = await cli(['doctor', '--set-claude-retention', '365', '--yes'], env, dataDir)
    expect(set.code).toBe(0)
    expect(set.out).toContain('Claude Code now keeps sessions 365 days')
    const written = readFileSync(file, 'utf8')
    expect(written).toBe(SETTINGS.replace('"command": "~/.claude/statusline.sh" }\n}', '"command": "~/.claude/statusline.sh" },\n  "cleanupPeriodDays": 365\n}'))
    expect(JSON.parse(written)).toEqual({ ...(JSON.parse(SETTINGS) as object), cleanupPeriodDays: 365 })
    const backups = readdirSync(join(file, '..')).filter((name) => name.startsWith('settings.json.retrace-backup-'))
    expect(backups).toHaveLength(1)
    expect(readFileSync(join(file, '..', backups[0] as string), 'utf8')).toBe(SETTINGS)
    expect((await cli(['doctor', '--json'], env, dataDir)).out).toContain('"deletesAfterDays": 365')

    const undo = await cli(['doctor', '--undo-claude-retention'], env, dataDir)
    expect(undo.code).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(SETTINGS)
    // Nothing more to undo.
    expect((await cli(['doctor', '--undo-claude-retention'], env, dataDir)).err).toContain('nothing to undo')
  })

  it('changes an existing value in place, and undoes a second change before the first', async () => {
    const original = SETTINGS.replace('"model": "opus",', '"model": "opus",\n  "cleanupPeriodDays": 30,')
    const { file, env, dataDir } = setup(original)
    expect((await cli(['doctor', '--set-claude-retention', '90', '--yes'], env, dataDir)).code).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(original.replace('"cleanupPeriodDays": 30', '"cleanupPeriodDays": 90'))
    expect((await cli(['doctor', '--set-claude-retention', '3650', '--yes'], env, dataDir)).code).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(original.replace('"cleanupPeriodDays": 30', '"cleanupPeriodDays": 3650'))
    expect((await cli(['doctor', '--undo-claude-retention'], env, dataDir)).code).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(original.replace('"cleanupPeriodDays": 30', '"cleanupPeriodDays": 90'))
    expect((await cli(['doctor', '--undo-claude-retention'], env, dataDir)).code).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(original)
  })

  it('changes nothing without consent (no terminal to ask, no --yes)', async () => {
    const { file, env, dataDir } = setup(SETTINGS)
    const refused = await cli(['doctor', '--set-claude-retention', '365'], env, dataDir)
    expect(refused.code).toBe(2)
    // Not "Answer y": without a terminal there is no question to answer (R40).
    expect(refused.err).toBe('retrace: Not a terminal, so nobody can be asked: nothing changed. Pass --yes to write cleanupPeriodDays: 365.')
    expect(readFileSync(file, 'utf8')).toBe(SETTINGS)
    expect(readdirSync(join(file, '..')).filter((name) => name.includes('retrace'))).toEqual([])
    expect((await cli(['doctor', '--set-claude-retention', '0', '--yes'], env, dataDir)).code).toBe(2)
  })

  it('refuses to undo once the file changed since, and says where the backup is', async () => {
    const { file, env, dataDir } = setup(SETTINGS)
    await cli(['doctor', '--set-claude-retention', '365', '--yes'], env, dataDir)
    const changed = readFileSync(file, 'utf8').replace('"opus"', '"sonnet"')
    writeFileSync(file, changed)
    const undo = await cli(['doctor', '--undo-claude-retention'], env, dataDir)
    expect(undo.code).toBe(1)
    expect(undo.err).toContain('changed since Retrace wrote it')
    expect(undo.err).toContain('settings.json.retrace-backup-')
    expect(readFileSync(file, 'utf8')).toBe(changed)
  })

  it('creates the file when there was none, and undo removes it again', async () => {
    const { file, env, dataDir } = setup(null)
    expect((await cli(['doctor', '--set-claude-retention', '120', '--yes'], env, dataDir)).code).toBe(0)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ cleanupPeriodDays: 120 })
    expect((await cli(['doctor', '--undo-claude-retention'], env, dataDir)).code).toBe(0)
    expect(existsSync(file)).toBe(false)
  })

  it('writes through a linked settings.json (a dotfiles repository), leaving the link a link', async () => {
    const { file, env, dataDir } = setup(null)
    const dotfiles = join(tempDir(), 'dotfiles')
    mkdirSync(dotfiles)
    writeFileSync(join(dotfiles, 'claude-settings.json'), SETTINGS)
    symlinkSync(join(dotfiles, 'claude-settings.json'), file)
    expect((await cli(['doctor', '--set-claude-retention', '365', '--yes'], env, dataDir)).code).toBe(0)
    expect(lstatSync(file).isSymbolicLink()).toBe(true)
    expect(JSON.parse(readFileSync(join(dotfiles, 'claude-settings.json'), 'utf8'))).toMatchObject({ cleanupPeriodDays: 365 })
    expect((await cli(['doctor', '--undo-claude-retention'], env, dataDir)).code).toBe(0)
    expect(readFileSync(join(dotfiles, 'claude-settings.json'), 'utf8')).toBe(SETTINGS)
    expect(lstatSync(file).isSymbolicLink()).toBe(true)
  })
})
