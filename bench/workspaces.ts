import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createRuntime } from '../src/main/runtime/runtime'
import { encodeProjectFolder } from '../src/main/sources/claude-code/project-folder'
import { FIXTURES } from '../src/main/sources/testing/claude-home'
import { makeTempDir, removeDir } from './lib/files'
import { formatCount } from './lib/stats'
import { renderTable, type ResultRow } from './lib/table'

// `vite-node bench/workspaces.ts [FILES]`: how long `workspaces.listAll` (`retrace workspaces`, the
// first screen) takes on a big ~/.claude: FILES session files (default 2,000) in 200 project
// folders, each a real fixture session with its cwd rewritten, of four sizes. Discovery reads each
// file's head (256 KiB at most) and the listing each file's last 64 KiB, so the page cache decides:
// the first run after writing is as warm as the machine allows (dropping the cache needs root and
// disturbs everyone); `first call` is a fresh process's, `again` the same process's next call.

const FILES = Number(process.argv[2] ?? 2000)
const PROJECTS = 200
const TARGET_MS = 2000

/** Real sessions of four sizes, the biggest cut to 1 MB at a line end; share of the files each. */
function samples(): { text: string; cwd: string; share: number }[] {
  const spotter = readFileSync(join(FIXTURES, 'claude-code/spotter/projects-dir/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'), 'utf8')
  const cut = spotter.slice(0, spotter.lastIndexOf('\n', 1024 * 1024) + 1)
  const small = (name: string) => readFileSync(join(FIXTURES, 'claude-code/spotter', name), 'utf8')
  return [
    { text: cut, cwd: '/home/USER/projects/spotter-worktrees/spotter-4te', share: 0.05 },
    { text: small('subagent.jsonl'), cwd: '/home/marco/projects/spotter', share: 0.2 },
    { text: small('tool_heavy.jsonl'), cwd: '/home/marco/projects/spotter', share: 0.375 },
    { text: small('short.jsonl'), cwd: '/home/marco/projects/spotter', share: 0.375 }
  ]
}

function generate(root: string): number {
  const kinds = samples()
  let bytes = 0
  for (let i = 0; i < FILES; i++) {
    const project = `/home/someone/work/project-${i % PROJECTS}`
    const folder = join(root, 'projects', encodeProjectFolder(project))
    mkdirSync(folder, { recursive: true })
    let pick = (i * 0.6180339887) % 1
    const kind = kinds.find((candidate) => (pick -= candidate.share) < 0) ?? kinds[kinds.length - 1]
    if (!kind) continue
    const text = kind.text.replaceAll(`"cwd":"${kind.cwd}"`, `"cwd":"${project}"`)
    const id = `${String(i).padStart(8, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`
    writeFileSync(join(folder, `${id}.jsonl`), text)
    bytes += Buffer.byteLength(text)
  }
  return bytes
}

async function main(): Promise<void> {
  const dir = makeTempDir()
  try {
    const claude = join(dir, 'claude')
    const bytes = generate(claude)
    const rt = createRuntime({ dataDir: join(dir, 'data'), host: { binding: 'web' }, version: 'bench', env: { HOME: dir, CLAUDE_CONFIG_DIR: claude, CODEX_HOME: join(dir, 'none') }, followImports: false })
    await rt.ready
    const timed = async () => {
      const started = performance.now()
      const { items } = await rt.handlers['workspaces.listAll']({ refresh: 'wait' })
      return { ms: performance.now() - started, items }
    }
    const first = await timed()
    const again = await timed()
    rt.close()
    const row = (measure: string, ms: number): ResultRow => ({
      measure,
      retrace: `${Math.round(ms)} ms`,
      reference: `${formatCount(FILES)} files, ${(bytes / 1024 / 1024).toFixed(0)} MiB, ${first.items.length} workspaces`,
      target: `< ${TARGET_MS} ms`,
      met: ms < TARGET_MS,
      n: '1'
    })
    console.log(renderTable([row('workspaces.listAll, first call', first.ms), row('workspaces.listAll, again', again.ms)], 'tree'))
  } finally {
    removeDir(dir)
  }
}

void main()
