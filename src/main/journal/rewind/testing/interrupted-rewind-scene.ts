// Run with vite-node by e2e/web/recovery.spec.ts (the store's migrations are bundled by Vite): a data folder holding a
// workspace whose rewind was killed part-way (SIGKILL, in a child process), after which the user
// edited one file the rewind had written, deleted another, and edited one it had not reached.
// Prints the three paths as JSON. Usage: interrupted-rewind.ts <data-dir> <workspace-folder>
import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createRuntime } from '../../../runtime/runtime'

const ROOT = resolve(__dirname, '../../../../..')
const [dataDir = '', root = ''] = process.argv.slice(2)
const FILES = Array.from({ length: 40 }, (_, i) => `src/module${String(i).padStart(2, '0')}.ts`)
const before = (i: number) => `export const value${i} = ${i}\n`
const after = (i: number) => `export const total${i} = ${i} // renamed\n`

mkdirSync(join(root, 'src'), { recursive: true })
for (const [i, file] of FILES.entries()) writeFileSync(join(root, file), before(i))
const rt = createRuntime({ dataDir, host: { binding: 'web' }, version: 'e2e' })
await rt.ready
const workspaceId = rt.store.workspaces.open(root, 'billing-service')
const writer = rt.recorder.startSession({ workspaceId, title: 'Rename every value to total' })
writer.append({ role: 'user', content: 'Rename every value to total' })
const sessionRowId = rt.store.sessions.require(writer.id).rowId
for (const [i, file] of FILES.entries()) {
  writeFileSync(join(root, file), after(i))
  rt.journal.recordToolChange({ workspaceId, sessionRowId, turn: writer.turn }, { path: file, before: Buffer.from(before(i)), after: Buffer.from(after(i)), modeBefore: 0o644, modeAfter: 0o644 })
}
writer.append({ role: 'assistant', content: 'Renamed them all.' })
rt.close()

// One file at a time (a huge batch threshold), killed at the 60th file-system call: about 20 files in.
const child = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite-node/dist/cli.mjs'), join(ROOT, 'src/main/journal/rewind/testing/crash-child.ts'), dataDir, writer.id, '60', '100000'], { cwd: ROOT, encoding: 'utf8' })
if (child.signal !== 'SIGKILL') throw new Error(`the rewind was not killed: ${child.stdout}${child.stderr}`)

const [edited = '', deleted = '', notReached = ''] = [FILES[0], FILES[1], FILES[39]]
writeFileSync(join(root, edited), 'export const value0 = 0 // fixed by hand after the crash\n')
rmSync(join(root, deleted))
writeFileSync(join(root, notReached), 'export const total39 = 39 // edited while Retrace was down\n')
process.stdout.write(`${JSON.stringify({ edited, deleted, notReached })}\n`)
