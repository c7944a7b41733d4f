import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../cli/main'
import { tempDir } from '../testing/temp-runtime'

/** Every file under a folder, with its content hash and mode: a fingerprint of the user's repository. */
function fingerprint(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) Object.assign(out, fingerprint(path, `${prefix}${entry.name}/`))
    else out[`${prefix}${entry.name}`] = `${createHash('sha256').update(readFileSync(path)).digest('hex')}:${(statSync(path).mode & 0o777).toString(8)}`
  }
  return out
}

describe('the user\'s repositories, of git and other systems (R19)', () => {
  const dirs: ReturnType<typeof tempDir>[] = []
  afterEach(() => dirs.splice(0).forEach((d) => d.dispose()))

  it('are never captured and never touched by a rewind, even when the agent ran git during the turn', async () => {
    const data = tempDir()
    const project = tempDir('retrace-project-')
    dirs.push(data, project)
    const root = project.path
    const fakeRepo = (at: string) => {
      mkdirSync(join(at, '.git/refs/heads'), { recursive: true })
      writeFileSync(join(at, '.git/HEAD'), 'ref: refs/heads/main\n')
      writeFileSync(join(at, '.git/index'), Buffer.from([0x44, 0x49, 0x52, 0x43, 0, 0, 0, 2]))
      writeFileSync(join(at, '.git/refs/heads/main'), 'a'.repeat(40) + '\n')
    }
    fakeRepo(root)
    mkdirSync(join(root, 'vendor/lib'), { recursive: true })
    fakeRepo(join(root, 'vendor/lib')) // a nested repository / submodule
    // Other systems' metadata, as their programs (not on this machine) leave it: a colocated jj repository, Mercurial, Subversion.
    const otherVcs = { '.hg/store/00changelog.i': 'hg', '.hg/hgrc': '[paths]\n', '.jj/repo/op_heads/heads/x': 'jj', '.svn/wc.db': 'SQLite format 3', '.svn/entries': '12\n' }
    for (const [path, content] of Object.entries(otherVcs)) {
      mkdirSync(join(root, path, '..'), { recursive: true })
      writeFileSync(join(root, path), content)
    }
    writeFileSync(join(root, 'vendor/lib/lib.c'), 'int x;\n')
    writeFileSync(join(root, 'app.c'), 'int main() {}\n')
    const io = { out: () => undefined, err: (t: string) => { throw new Error(t) } }
    const run = (...args: string[]) => runCli([...args, '--data-dir', data.path], io, {})

    await run('checkpoint', 'begin', '--workspace', root, '--session', 'agent')
    // The turn: the agent edits code and commits (git writes HEAD, index, refs, objects).
    writeFileSync(join(root, 'app.c'), 'int main() { return 1; }\n')
    writeFileSync(join(root, 'vendor/lib/lib.c'), 'int y;\n')
    writeFileSync(join(root, '.git/refs/heads/main'), 'b'.repeat(40) + '\n')
    writeFileSync(join(root, '.git/index'), Buffer.from([0x44, 0x49, 0x52, 0x43, 0, 0, 0, 3]))
    mkdirSync(join(root, '.git/objects/ab'), { recursive: true })
    writeFileSync(join(root, '.git/objects/ab/cdef'), 'object')
    writeFileSync(join(root, 'vendor/lib/.git/HEAD'), 'ref: refs/heads/other\n')
    for (const path of Object.keys(otherVcs)) writeFileSync(join(root, path), 'changed by its own tool during the turn\n')
    await run('checkpoint', 'end', '--workspace', root, '--session', 'agent')

    const sessions = await new Promise<string>((resolve) => {
      void runCli(['sessions', root, '--json', '--data-dir', data.path], { out: resolve, err: () => undefined }, {})
    })
    const sessionId = (JSON.parse(sessions) as { sessions: { id: string }[] }).sessions[0]?.id ?? ''
    const changes = await new Promise<string>((resolve) => {
      void runCli(['changes', sessionId, '--json', '--data-dir', data.path], { out: resolve, err: () => undefined }, {})
    })
    const paths = (JSON.parse(changes) as { changes: { path: string }[] }[]).flatMap((t) => t.changes.map((c) => c.path))
    expect(paths.sort()).toEqual(['app.c', 'vendor/lib/lib.c'])

    const gitBefore = { root: fingerprint(join(root, '.git')), nested: fingerprint(join(root, 'vendor/lib/.git')), other: ['.hg', '.jj', '.svn'].map((folder) => fingerprint(join(root, folder))) }
    await run('rewind', sessionId, '--turn', '1', '--yes')
    expect(readFileSync(join(root, 'app.c'), 'utf8')).toBe('int main() {}\n')
    expect(readFileSync(join(root, 'vendor/lib/lib.c'), 'utf8')).toBe('int x;\n')
    // HEAD, index, refs and objects exactly as the agent's git left them: not ours to touch.
    expect({ root: fingerprint(join(root, '.git')), nested: fingerprint(join(root, 'vendor/lib/.git')), other: ['.hg', '.jj', '.svn'].map((folder) => fingerprint(join(root, folder))) }).toEqual(gitBefore)
  }, 30_000)
})
