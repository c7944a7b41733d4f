import { appendFileSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contractCaller, importTestbed } from './testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-unread-')

// A real Codex 0.125.0 rollout (fixtures/codex/codemie/PROVENANCE.txt).
const REAL = 'fixtures/codex/codemie/sessions/2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl'
const RECORDED_CWD = '/Users/Sample_User/repos/codemie-ai/codemie-code'

const newRecord = (type: string) => `${JSON.stringify({ timestamp: '2026-05-11T09:00:00.000Z', type, payload: { anything: 1 } })}\n`
const newEvent = (type: string) => `${JSON.stringify({ timestamp: '2026-05-11T09:00:00.000Z', type: 'event_msg', payload: { type } })}\n`

/** The real rollout in a temporary CODEX_HOME, recorded in `workspace`, with lines of kinds no Codex writes yet. */
function rolloutWithNewKinds(workspace: string): { home: string; path: string } {
  const home = join(tempDir(), 'codex')
  const day = join(home, 'sessions', '2026', '05', '11')
  mkdirSync(day, { recursive: true })
  const path = join(day, REAL.split('/').pop() ?? '')
  copyFileSync(REAL, path)
  writeFileSync(path, readFileSync(path, 'utf8').replaceAll(RECORDED_CWD, workspace))
  appendFileSync(path, newRecord('brand_new_record') + newEvent('item_teleported') + newRecord('brand_new_record'))
  return { home, path }
}

describe('records an importer does not read', () => {
  it('are counted per source, agent version and kind: in the report, per workspace and everywhere, once per line', async () => {
    const workspace = tempDir()
    const { home, path } = rolloutWithNewKinds(workspace)
    const rt = runtime({ codex: home })
    const call = contractCaller(rt)
    const { id: workspaceId } = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId })
    const expected = [
      { source: 'codex', agentVersion: '0.125.0', what: 'line type "brand_new_record"', count: 2 },
      { source: 'codex', agentVersion: '0.125.0', what: 'event_msg "item_teleported"', count: 1 }
    ]
    expect(report.unread).toEqual(expect.arrayContaining(expected.map((entry) => ({ ...entry, example: { file: path, offset: expect.any(Number) as number } }))))
    // Nothing else in this real rollout is unread, and the new kinds are not reported as malformed.
    expect(report.unread).toHaveLength(2)
    expect(report.skipped.filter((line) => /brand_new|teleported|line type|event_msg/.test(line.reason))).toEqual([])
    expect((await call('imports.unread', { workspaceId })).items).toMatchObject(expected)
    expect((await call('imports.unread', {})).items).toMatchObject(expected)

    // Importing again reads nothing new and counts nothing twice; a new line adds one.
    await call('imports.run', { workspaceId })
    appendFileSync(path, newRecord('brand_new_record'))
    const again = await call('imports.run', { workspaceId })
    expect(again.unread).toMatchObject([{ what: 'line type "brand_new_record"', count: 1 }])
    expect((await call('imports.unread', { workspaceId })).items).toMatchObject([{ what: 'line type "brand_new_record"', count: 3 }, expected[1]])
  })

  it('are counted afresh when the file is rewritten and read again from its start', async () => {
    const workspace = tempDir()
    const { home, path } = rolloutWithNewKinds(workspace)
    const rt = runtime({ codex: home })
    const call = contractCaller(rt)
    const { id: workspaceId } = await call('workspaces.open', { path: workspace })
    await call('imports.run', { workspaceId })
    // Rewritten in place, shorter: its first line other than before, one new record left.
    const lines = readFileSync(path, 'utf8').split('\n')
    writeFileSync(path, [lines[0]?.replace('"cli_version":"0.125.0"', '"cli_version":"0.126.0"'), newRecord('brand_new_record')].join('\n'))
    await call('imports.run', { workspaceId })
    expect((await call('imports.unread', { workspaceId })).items).toMatchObject([{ agentVersion: '0.126.0', what: 'line type "brand_new_record"', count: 1 }])
  })
})
