import { renderTable } from '../lib/table'
import type { ScaleContext } from './context'
import type { ScaleCorpus } from './corpus'
import { measureSearch } from './measure-search'

// The search measure alone on a store imported already: `npx vite-node bench/scale/run-search.ts -- DATA_DIR`
// (a copy: opening it runs migrations). No corpus is read; the measure only searches.
async function main(): Promise<void> {
  const dataDir = process.argv.slice(2).find((arg) => arg !== '--')
  if (!dataDir) throw new Error('usage: run-search.ts DATA_DIR')
  const corpus = { env: {} } as ScaleCorpus
  const ctx: ScaleContext = { corpus, dataDir, startupMs: 0 }
  console.log(renderTable(await measureSearch(ctx), 'reference (same run)'))
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
