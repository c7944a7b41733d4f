import { spawnSync } from 'node:child_process'
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { encodeProjectFolder } from './claude-code/project-folder'
import { FIXTURES } from './testing/claude-home'
import { importTestbed } from './testing/import-testbed'

const ROOT = resolve(__dirname, '../../..')
const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'
const CWD = '/home/USER/projects/spotter-worktrees/spotter-4te'
const MB = 1024 * 1024

const { tempDir } = importTestbed('retrace-import-memory-')

/**
 * A real Claude Code session's first lines, then `count` Bash results of `size` bytes each
 * (the fixture's own result line, its output and `toolUseResult.stdout` grown), and in their
 * middle a `progress` line of `progressSize` bytes (the fixture's, its hook output grown).
 * Returns the offset of the progress line.
 */
function writeLargeSession(root: string, count: number, size: number, progressSize: number): number {
  const lines = readFileSync(join(FIXTURES, 'claude-code/spotter/projects-dir', `${SESSION}.jsonl`), 'utf8').split('\n')
  const result = JSON.parse(lines[24] ?? '') as { uuid: string; message: { content: { content: string }[] }; toolUseResult: { stdout: string } }
  const progress = JSON.parse(lines[19] ?? '') as { data: Record<string, unknown> }
  const row = 'drwxr-xr-x  2 user user  4096 Feb 12 14:12 lib/spotter/telemetry/otel.ex\n'
  const output = row.repeat(Math.ceil(size / 2 / row.length))
  const folder = join(root, 'projects', encodeProjectFolder(CWD))
  mkdirSync(folder, { recursive: true })
  const file = openSync(join(folder, `${SESSION}.jsonl`), 'w')
  let offset = writeSync(file, lines.slice(0, 24).map((line) => `${line}\n`).join(''))
  let progressOffset = -1
  for (let i = 0; i < count; i++) {
    if (i === count / 2) {
      progressOffset = offset
      offset += writeSync(file, `${JSON.stringify({ ...progress, data: { ...progress.data, output: row.repeat(Math.ceil(progressSize / row.length)) } })}\n`)
    }
    result.uuid = `large-result-${i}`
    result.message.content[0] = { ...result.message.content[0], content: output }
    result.toolUseResult.stdout = output
    offset += writeSync(file, `${JSON.stringify(result)}\n`)
  }
  closeSync(file)
  return progressOffset
}

describe('importing a history of large lines', () => {
  // Linux: the child reads its peak resident set from /proc.
  it.runIf(process.platform === 'linux')('costs memory by the size of a line, not by how many lines there are; a 90 MB line is reported, not read', () => {
    const dir = tempDir()
    const claude = join(dir, 'claude')
    // 100 tool results of 4 MB (a 490 MB file) around a 90 MB progress line. The import commits
    // by bytes; one commit for the whole file would hold all 100 results until then.
    const progressOffset = writeLargeSession(claude, 100, 4 * MB, 90 * MB)
    const child = spawnSync(process.execPath, ['--expose-gc', join(ROOT, 'node_modules/vite-node/dist/cli.mjs'), join(__dirname, 'testing/import-memory-child.ts'), claude, join(dir, 'data')], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000
    })
    expect(child.status, child.stderr).toBe(0)
    const result = JSON.parse(child.stdout) as { growthMB: number; messages: number; skipped: { offset: number; reason: string }[] }
    expect(result.growthMB, 'MB the import added to the resident set at its peak').toBeLessThan(300)
    expect(result.skipped).toEqual([{ file: expect.stringContaining(SESSION) as string, offset: progressOffset, reason: expect.stringMatching(/^line of 9\d\.\d MB is longer than the 48\.0 MB a line may have, not imported$/) as string }])
    expect(result.messages).toBe(5 + 100) // the fixture lines' messages, then every result
  }, 180_000)
})
