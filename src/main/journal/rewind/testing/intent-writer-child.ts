// Run by torn-intent.test.ts in a child process: write one large intent log (ARG 2 steps) into
// the data folder ARG 1 under the rewind id ARG 3, then leave a `done` file beside the intents
// folder, so the parent, polling the log's size all along, knows when to stop looking.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { RelPath } from '../../../fs/paths'
import { writeIntent } from '../intent-log'
import type { Step } from '../steps'

const [dataDir = '', count = '0', rewindId = ''] = process.argv.slice(2)
const version = { kind: 'file' as const, hash: 'a'.repeat(64), size: 12, mode: 0o644 }
const steps: Step[] = Array.from({ length: Number(count) }, (_, i) => ({ kind: 'write', path: Buffer.from(`src/deep/folder/file-${i}.txt`) as RelPath, pre: version, post: { ...version, hash: 'b'.repeat(64) } }))
writeIntent(dataDir, { version: 1, rewindId, root: Buffer.from('/nowhere').toString('base64'), startedAt: Date.now(), steps })
writeFileSync(join(dataDir, 'done'), '')
