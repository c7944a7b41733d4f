import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ImportReport } from '../../import-deps'
import type { Runtime } from '../../../runtime/runtime'
import { contractCaller, type importTestbed } from '../import-testbed'
import { CORPUS, type SetLayout } from './corpus'
import { figuresOf, type Figures } from './figures'

type Testbed = ReturnType<typeof importTestbed>

/**
 * Import one set into a real store on a fresh data folder, as a user's import would: Claude Code
 * and Codex homes through `import --all`, a LangGraph database by opening its folder. The agent's
 * files are copied to a temporary home first (Retrace only reads them; the fixtures stay as they are).
 */
export async function importSet(set: string, layout: SetLayout, testbed: Testbed): Promise<{ figures: Figures; runtime: Runtime; report: ImportReport }> {
  const source = join(CORPUS, set, layout.data)
  const home = testbed.tempDir()
  if (layout.agent === 'langgraph') {
    const project = join(home, 'project')
    cpSync(source, project, { recursive: true })
    const rt = testbed.runtime({})
    const call = contractCaller(rt)
    const workspace = await call('workspaces.open', { path: project })
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] })
    return { figures: figuresOf(rt, report), runtime: rt, report }
  }
  const root = join(home, layout.agent)
  const folder = join(root, layout.agent === 'claude' ? 'projects' : 'sessions')
  const target = layout.project ? join(folder, layout.project) : folder
  mkdirSync(folder, { recursive: true })
  cpSync(source, target, { recursive: true })
  if (layout.rewriteCwd) rewriteCwd(target, layout.rewriteCwd)
  const rt = testbed.runtime(layout.agent === 'claude' ? { claude: root } : { codex: root })
  const report = await rt.imports.importAll()
  return { figures: figuresOf(rt, report), runtime: rt, report }
}

function rewriteCwd(dir: string, { from, to }: { from: string; to: string }): void {
  if (Buffer.byteLength(from) !== Buffer.byteLength(to)) throw new Error('rewriteCwd must keep the length (byte offsets)')
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) rewriteCwd(path, { from, to })
    else if (name.endsWith('.jsonl')) writeFileSync(path, readFileSync(path, 'utf8').split(`"cwd":"${from}`).join(`"cwd":"${to}`))
  }
}
