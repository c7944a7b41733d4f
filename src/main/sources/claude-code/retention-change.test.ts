import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../testing/temp-runtime'
import { setClaudeRetention, undoClaudeRetention } from './retention-change'

/**
 * `retrace doctor --set-claude-retention` and its undo on settings files that are links, that
 * someone writes at the same moment, or that are empty (issue 38, low items).
 */
describe("Claude Code's retention setting: links, concurrent writers, exact bytes back", () => {
  const dirs: ReturnType<typeof tempDir>[] = []
  afterEach(() => dirs.splice(0).forEach((dir) => dir.dispose()))

  function setup() {
    const dir = tempDir('retrace-retention-')
    dirs.push(dir)
    const config = join(dir.path, 'claude')
    mkdirSync(config)
    return { dir: dir.path, env: { CLAUDE_CONFIG_DIR: config }, settings: join(config, 'settings.json'), undoFile: join(dir.path, 'changes.json') }
  }

  it.skipIf(process.platform === 'win32')('refuses a settings link to nothing, and leaves the link; a live link has its target edited and given back', () => {
    const { dir, env, settings, undoFile } = setup()
    const target = join(dir, 'dotfiles', 'settings.json')
    symlinkSync(target, settings)
    expect(() => setClaudeRetention(env, 365, undoFile)).toThrow(`${settings} is a link to ${target}, which does not exist: Retrace does not replace the link.`)
    expect(readlinkSync(settings)).toBe(target)
    expect(() => undoClaudeRetention(undoFile)).toThrow('nothing to undo')
    expect(readlinkSync(settings)).toBe(target)

    mkdirSync(join(dir, 'dotfiles'))
    writeFileSync(target, '{ "model": "opus" }')
    expect(setClaudeRetention(env, 365, undoFile).file).toBe(target)
    expect(lstatSync(settings).isSymbolicLink()).toBe(true)
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({ model: 'opus', cleanupPeriodDays: 365 })
    undoClaudeRetention(undoFile)
    expect(lstatSync(settings).isSymbolicLink()).toBe(true)
    expect(readFileSync(target, 'utf8')).toBe('{ "model": "opus" }')
  })

  it('keeps what another writer saved meanwhile: it reads again and sets the key on that', () => {
    const { env, settings, undoFile } = setup()
    writeFileSync(settings, '{\n  "model": "opus"\n}\n')
    let writes = 0
    setClaudeRetention(env, 90, undoFile, Date.now(), (file) => {
      if (writes++ === 0) writeFileSync(file, '{\n  "model": "opus",\n  "theme": "dark"\n}\n')
    })
    expect(JSON.parse(readFileSync(settings, 'utf8'))).toEqual({ model: 'opus', theme: 'dark', cleanupPeriodDays: 90 })
    undoClaudeRetention(undoFile)
    expect(readFileSync(settings, 'utf8')).toBe('{\n  "model": "opus",\n  "theme": "dark"\n}\n')
  })

  it('gives up with a sentence when the file keeps changing, and leaves the other writer\'s content', () => {
    const { env, settings, undoFile } = setup()
    writeFileSync(settings, '{}\n')
    let writes = 0
    expect(() => setClaudeRetention(env, 90, undoFile, Date.now(), (file) => writeFileSync(file, `{ "n": ${++writes} }\n`))).toThrow(`${settings} was changed by someone else while Retrace was editing it`)
    expect(readFileSync(settings, 'utf8')).toBe(`{ "n": ${writes} }\n`)
    expect(() => undoClaudeRetention(undoFile)).toThrow('nothing to undo')
  })

  it('an empty settings file comes back empty after undo', () => {
    const { env, settings, undoFile } = setup()
    writeFileSync(settings, '')
    setClaudeRetention(env, 365, undoFile)
    expect(JSON.parse(readFileSync(settings, 'utf8'))).toEqual({ cleanupPeriodDays: 365 })
    undoClaudeRetention(undoFile)
    expect(readFileSync(settings, 'utf8')).toBe('')
  })
})
