import { appendFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { readThreadNames } from './session-index'

// Writer-derived index (fixtures/codex/paginated/PROVENANCE.txt): two names for the parent, a blank one for the child.
const HOME = fileURLToPath(new URL('../../../../fixtures/codex/paginated/paginated', import.meta.url))

describe("Codex's session_index.jsonl", () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('gives each thread its last non-blank name', async () => {
    const names = await readThreadNames(HOME)
    expect([...names]).toEqual([
      ['01a0b3da-c522-7af2-8a6d-2e1aed53b269', 'Uploader retry review'],
      ['01a09f00-0000-7000-8000-000000000000', 'A thread whose rollout is gone']
    ])
  })

  it('passes over lines that are not entries, and reads the file again once it grows', async () => {
    const home = mkdtempSync(join(tmpdir(), 'retrace-session-index-'))
    dirs.push(home)
    expect((await readThreadNames(home)).size).toBe(0) // no index yet
    appendFileSync(join(home, 'session_index.jsonl'), 'not json\n{"id":"a","thread_name":"First"}\n[1,2]\n{"id":3,"thread_name":"x"}\n{"id":"b"}\n')
    expect([...(await readThreadNames(home))]).toEqual([['a', 'First']])
    appendFileSync(join(home, 'session_index.jsonl'), '{"id":"a","thread_name":"  Renamed  ","updated_at":"2026-09-18T10:00:00Z"}\n')
    expect([...(await readThreadNames(home))]).toEqual([['a', 'Renamed']])
  })
})
