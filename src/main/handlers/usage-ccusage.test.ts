import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { UsageRow } from '../../shared/contract'
import { ccusageBin, ccusageDaily, claudeTokens, fixtureClaudeConfig, type ClaudeTokens, type FixtureSet } from '../pricing/testing/ccusage'
import { contractCaller, importTestbed } from '../sources/testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-usage-ccusage-')
const bin = ccusageBin()

const asCcusage = (row: UsageRow): ClaudeTokens => ({
  inputTokens: row.inputTokens,
  outputTokens: row.outputTokens,
  cacheCreationTokens: row.cacheWriteTokens,
  cacheReadTokens: row.cacheReadTokens
})
const tokensOf = (totals: ClaudeTokens): ClaudeTokens => ({
  inputTokens: totals.inputTokens,
  outputTokens: totals.outputTokens,
  cacheCreationTokens: totals.cacheCreationTokens,
  cacheReadTokens: totals.cacheReadTokens
})

// ccusage is a devDependency (pinned, 20.0.24); without it (an install that skipped it) these skip.
describe.skipIf(bin === null)('usage.all against ccusage daily on real Claude Code files (skipped: ccusage is not installed, run npm install)', () => {
  async function both(set: FixtureSet) {
    const claude = fixtureClaudeConfig(tempDir(), set)
    const home = tempDir()
    mkdirSync(join(home, '.claude'), { recursive: true })
    const theirs = tokensOf(ccusageDaily(bin ?? '', claude, home).totals)
    const rt = runtime({ claude })
    await rt.imports.importAll()
    const ours = asCcusage((await contractCaller(rt)('usage.all', {})).total)
    return { claude, theirs, ours }
  }

  it('gives ccusage\'s totals where every line has a requestId (responses written as several lines included)', async () => {
    const { claude, theirs, ours } = await both('with-request-ids')
    expect(ours).toEqual(theirs)
    // Not vacuous: these files repeat message ids across lines, which both count once.
    const perLine = claudeTokens(claude, 'ccusage')
    expect(perLine.outputTokens).toBeGreaterThan(100_000)
  })

  it('counts a response written as several lines once where lines have no requestId, which ccusage counts per line', async () => {
    const { claude, theirs, ours } = await both('without-request-ids')
    // Each side is exactly its rule (pricing/testing/ccusage.ts), and the rules part here.
    expect(theirs).toEqual(claudeTokens(claude, 'ccusage'))
    expect(ours).toEqual(claudeTokens(claude, 'per-response'))
    expect(theirs.cacheCreationTokens).toBeGreaterThan(ours.cacheCreationTokens)
  })
})
