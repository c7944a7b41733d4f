import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../testing/temp-runtime'
import { runCli } from './main'

describe('retrace checkpoint begin|end (hook capture of shell changes)', () => {
  const dirs: ReturnType<typeof tempDir>[] = []
  afterEach(() => dirs.splice(0).forEach((d) => d.dispose()))

  it('captures rm, mv, new folders and chmod made by a shell, and a rewind restores them exactly (R8, R9)', async () => {
    const data = tempDir()
    const project = tempDir('retrace-project-')
    dirs.push(data, project)
    const root = project.path
    writeFileSync(join(root, 'keep.txt'), 'keep\n')
    writeFileSync(join(root, 'doomed.txt'), 'rm will take me\n')
    writeFileSync(join(root, 'old-name.ts'), 'export const x = 1\n')
    writeFileSync(join(root, 'script.sh'), 'echo hi\n')
    writeFileSync(join(root, '.gitignore'), 'build/\n')
    let out: string[] = []
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(`ERR ${t}`) }
    const run = (...args: string[]) => runCli([...args, '--data-dir', data.path], io, {})

    expect(await run('checkpoint', 'begin', '--workspace', root, '--session', 'agent-abc', '--json')).toBe(0)
    const begun = JSON.parse(out.join('')) as { sessionId: string; turn: number; files: number }
    expect(begun).toMatchObject({ turn: 1, files: 5 })

    // The "shell" part of the turn: nothing here goes through a tool.
    rmSync(join(root, 'doomed.txt'))
    renameSync(join(root, 'old-name.ts'), join(root, 'new-name.ts'))
    mkdirSync(join(root, 'gen/deep'), { recursive: true })
    writeFileSync(join(root, 'gen/deep/out.js'), 'generated\n')
    chmodSync(join(root, 'script.sh'), 0o755)
    mkdirSync(join(root, 'build'))
    writeFileSync(join(root, 'build/ignored.o'), 'ignored by .gitignore\n')

    out = []
    expect(await run('checkpoint', 'end', '--workspace', root, '--session', 'agent-abc', '--json')).toBe(0)
    expect(JSON.parse(out.join(''))).toMatchObject({ turn: 1, changes: 4, counts: { delete: 1, rename: 1, create: 1, mode: 1 } })

    // Scripts may name the session by the agent's own id, the one its hooks pass.
    out = []
    expect(await run('changes', 'agent-abc', '--turn', '1', '--json')).toBe(0)
    const [turnOne] = JSON.parse(out.join('')) as { turn: number; changes: unknown[] }[]
    expect(turnOne).toMatchObject({ turn: 1 })
    expect(turnOne?.changes).toHaveLength(4)

    out = []
    expect(await run('rewind', begun.sessionId, '--turn', '1', '--yes')).toBe(0)
    expect(readFileSync(join(root, 'doomed.txt'), 'utf8')).toBe('rm will take me\n')
    expect(readFileSync(join(root, 'old-name.ts'), 'utf8')).toBe('export const x = 1\n')
    expect(existsSync(join(root, 'new-name.ts'))).toBe(false)
    expect(existsSync(join(root, 'gen'))).toBe(false) // the generator's folders went with its file
    expect(lstatSync(join(root, 'script.sh')).mode & 0o777).toBe(0o644)
    expect(readFileSync(join(root, 'build/ignored.o'), 'utf8')).toBe('ignored by .gitignore\n') // never tracked, never touched
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('keep\n')

    // The same agent session continues: a second begin/end pair is turn 2.
    out = []
    expect(await run('checkpoint', 'begin', '--workspace', root, '--session', 'agent-abc', '--json')).toBe(0)
    expect(JSON.parse(out.join(''))).toMatchObject({ sessionId: begun.sessionId, turn: 2 })
  }, 30_000)

  it('says what to do when end comes without begin, or arguments are missing', async () => {
    const data = tempDir()
    const project = tempDir('retrace-project-')
    dirs.push(data, project)
    const err: string[] = []
    const io = { out: () => undefined, err: (t: string) => err.push(t) }
    expect(await runCli(['checkpoint', 'end', '--workspace', project.path, '--session', 'never-begun', '--data-dir', data.path], io, {})).toBe(1)
    expect(err.at(-1)).toContain('run "retrace checkpoint begin" first')
    expect(await runCli(['checkpoint', 'sideways', '--workspace', project.path, '--session', 'x', '--data-dir', data.path], io, {})).toBe(2)
  })

  it('says which paths it cannot track: one longer than the system allows, a name the journal refuses (reported, never silent) (R26)', async () => {
    const data = tempDir()
    const project = tempDir('retrace-project-')
    dirs.push(data, project)
    const root = project.path
    const longName = 'd'.repeat(250)
    // 17 folders of 250 bytes: past the 4096 bytes of PATH_MAX. Made one `cd` at a time, as only a relative path can.
    execFileSync('bash', ['-c', `cd "$1" && for i in $(seq 1 17); do mkdir ${longName} && cd ${longName}; done && echo one > deep.txt`, 'bash', root])
    dirs.unshift({ path: '', dispose: () => execFileSync('rm', ['-rf', join(root, longName)]) }) // rmSync cannot remove it: its paths are too long
    writeFileSync(join(root, 'ok.txt'), 'tracked\n')
    writeFileSync(join(root, 'a\\b.txt'), 'a backslash\n')
    let out: string[] = []
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(`ERR ${t}`) }
    const run = (...args: string[]) => runCli([...args, '--data-dir', data.path], io, {})

    expect(await run('checkpoint', 'begin', '--workspace', root, '--session', 'agent-long')).toBe(0)
    const note = out.find((line) => line.includes('not tracked')) ?? ''
    expect(note).toMatch(/^Retrace: 2 paths are not tracked, so a rewind leaves them as they are: /)
    expect(note).toContain('a\\b.txt (Retrace cannot record this name: it contains a backslash)')
    expect(note).toMatch(new RegExp(`${longName.slice(0, 80)}…d{30} \\(${17 * 251 - 1} bytes\\) \\(its path is too long for the operating system\\)`))

    out = []
    expect(await run('checkpoint', 'end', '--workspace', root, '--session', 'agent-long', '--json')).toBe(0)
    const ended = JSON.parse(out.join('')) as { skipped: number; untracked: { path: string; reason: string }[] }
    expect(ended.skipped).toBe(2)
    expect(ended.untracked.map((item) => item.reason).sort()).toEqual(['Retrace cannot record this name: it contains a backslash', 'its path is too long for the operating system'])
  }, 30_000)
})
