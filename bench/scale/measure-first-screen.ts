import { join } from 'node:path'
import { renderTable } from '../lib/table'
import { measureFirstScreen } from './first-screen'

// `vite-node bench/scale/measure-first-screen.ts DATA_DIR [CLAUDE_CONFIG_DIR] [CODEX_HOME]`: the
// measure bench:scale runs (first-screen.ts), alone on an existing store (run `npm run build` first).
async function main(): Promise<void> {
  const [dataDir, claude, codex] = process.argv.slice(2)
  if (!dataDir) throw new Error('Usage: measure-first-screen.ts DATA_DIR [CLAUDE_CONFIG_DIR] [CODEX_HOME]')
  const env = { ...process.env, HOME: join(dataDir, 'no-home'), CLAUDE_CONFIG_DIR: claude ?? join(dataDir, 'none'), CODEX_HOME: codex ?? join(dataDir, 'none') }
  console.log(renderTable(await measureFirstScreen(dataDir, env), 'reference (same run)'))
}

void main()
