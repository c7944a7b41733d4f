import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { encodeProjectFolder } from './claude-code/project-folder'
import { FIXTURES } from './testing/claude-home'
import { importTestbed } from './testing/import-testbed'
import { databaseOf } from '../store/raw-database'

const { tempDir, runtime } = importTestbed('retrace-backup-links-')

const SESSION = '4c2ddfdc-b619-4525-8d03-1950fb1b0257'
const FIXTURE = join(FIXTURES, 'claude-code/codemie/-tmp-private', `${SESSION}.jsonl`)
const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n'

describe('Claude Code file-history backups', () => {
  it('are read without following symbolic links: a linked backup is refused with its path, never copied into the store', async () => {
    // The real session of the codemie fixture, with its backup folder as an unpacked copy of
    // someone's config folder could leave it: hello.py's backup of turn 2 (the one its Edit
    // starts from) is a link to a private key, hello.js's a FIFO, hello.md's a plain file (large
    // enough to be streamed into the store, not kept inline).
    const dir = tempDir()
    const secret = join(dir, 'id_ed25519')
    writeFileSync(secret, KEY)
    const root = join(dir, 'claude')
    const project = join(root, 'projects', encodeProjectFolder('/tmp/private'))
    mkdirSync(project, { recursive: true })
    cpSync(FIXTURE, join(project, `${SESSION}.jsonl`))
    const backups = join(root, 'file-history', SESSION)
    mkdirSync(backups, { recursive: true })
    symlinkSync(secret, join(backups, '44096c3c3ab479c3@v2'))
    symlinkSync(join(dir, 'no-such-file'), join(backups, '44096c3c3ab479c3@v3'))
    const markdown = `# Hello\n\n${'This is a simple hello file.\n'.repeat(20_000)}`
    writeFileSync(join(backups, 'bdf9e93c7e5e5261@v1'), markdown)
    const fifo = spawnSync('mkfifo', [join(backups, '31326649df3e591c@v1')]).status === 0

    const rt = runtime({ claude: root })
    const report = await rt.imports.importAll()

    const lines = readFileSync(FIXTURE, 'utf8').split('\n')
    const offsetOfLine = (index: number) => Buffer.byteLength(lines.slice(0, index).map((line) => `${line}\n`).join(''))
    const refusals = report.skipped.filter((line) => line.reason.startsWith('file-history backup'))
    expect(refusals).toEqual([
      ...(fifo ? [{ file: expect.stringContaining(SESSION) as string, offset: offsetOfLine(10), reason: expect.stringMatching(/31326649df3e591c@v1 is not a plain file: not read/) as string }] : []),
      { file: expect.stringContaining(SESSION) as string, offset: offsetOfLine(13), reason: expect.stringMatching(/44096c3c3ab479c3@v2 is a symbolic link: not followed, not read/) as string },
      { file: expect.stringContaining(SESSION) as string, offset: offsetOfLine(20), reason: expect.stringMatching(/44096c3c3ab479c3@v3 is a symbolic link/) as string }
    ])
    // Nothing of the key is in the store: not as a blob, not as the content before an edit.
    const blobs = databaseOf(rt.store).prepare('SELECT hash FROM blobs').pluck().all() as string[]
    expect(blobs).not.toContain(createHash('sha256').update(KEY).digest('hex'))
    for (const hash of blobs) expect(rt.journal.blobs.read(hash).toString('utf8')).not.toContain('PRIVATE KEY')
    // The plain backup is copied as before.
    const copied = createHash('sha256').update(markdown).digest('hex')
    expect(blobs).toContain(copied)
    expect(rt.journal.blobs.read(copied).toString('utf8')).toBe(markdown)
    expect(report.fileChanges).toBeGreaterThan(0)
  })
})
