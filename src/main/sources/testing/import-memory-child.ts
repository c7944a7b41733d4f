// Run by import-memory.test.ts in a child process: import every Claude Code session under the
// folder given, and print how much the process's resident memory grew at its peak while it did.
//
// Measured as the peak resident set (VmHWM) after resetting it just before the import, minus the
// resident set at that moment: what the import itself costs, apart from what vite-node's module
// transforms took before. process.resourceUsage().maxRSS cannot tell it: it never goes down,
// and on Linux a child starts with the peak of the process that spawned it.
import { readFileSync, writeFileSync } from 'node:fs'
import { createRuntime } from '../../runtime/runtime'

const [claudeRoot, dataDir] = process.argv.slice(2)
const megabytes = (kilobytes: number) => Math.round(kilobytes / 1024)
const peakKilobytes = () => Number(/VmHWM:\s*(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1])

const runtime = createRuntime({
  dataDir: dataDir ?? '',
  host: { binding: 'web' },
  version: 'test',
  env: { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: claudeRoot, CODEX_HOME: '/nonexistent' },
  followImports: false
})
;(globalThis as { gc?: () => void }).gc?.() // started with --expose-gc: what is left is what the runtime holds
writeFileSync('/proc/self/clear_refs', '5') // the peak resident set starts again from the current one
const before = process.memoryUsage().rss / 1024
const report = await runtime.imports.importAll()
const growth = megabytes(peakKilobytes() - before)
runtime.close()
process.stdout.write(`${JSON.stringify({ growthMB: growth, messages: report.messages, skipped: report.skipped })}\n`)
