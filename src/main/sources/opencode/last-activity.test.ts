import { cpSync, mkdirSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { contractCaller, importTestbed } from '../testing/import-testbed'

// The latest `time_updated` (`time.updated` in the storage folder) of each directory's sessions
// in fixtures/opencode (make-fixtures.mjs): weatherly's main session, the notes session.
const WEATHERLY = 1_760_432_609_000
const NOTES = 1_760_436_004_000

describe("an OpenCode workspace's last activity", () => {
  const { tempDir, runtime } = importTestbed('retrace-opencode-activity-')

  for (const [layout, store] of [['db-v1.2', 'opencode.db'], ['storage-v0.15', 'storage']] as const) {
    it(`${layout}: is its sessions' latest update, not the time the store was last written`, async () => {
      const data = tempDir()
      const dir = join(data, 'opencode')
      mkdirSync(dir)
      cpSync(join(FIXTURES, 'opencode', layout, store), join(dir, store), { recursive: true })
      // One store for both folders: written (copied, vacuumed, touched by another session) today.
      const today = new Date()
      utimesSync(join(dir, store), today, today)
      const call = contractCaller(runtime({}, { env: { XDG_DATA_HOME: data } }))
      const { items } = await call('workspaces.listAll', {})
      const activity = Object.fromEntries(items.filter((item) => item.sources.some((source) => source.source === 'opencode')).map((item) => [item.path, item.lastActivityAt]))
      expect(activity).toEqual({ '/home/dev/weatherly': WEATHERLY, '/home/dev/notes': NOTES })
    })
  }

  it("the Kilo CLI's database (OpenCode's layout under kilo/): the same", async () => {
    const data = tempDir()
    cpSync(join(FIXTURES, 'kilo-cli', 'db-v7', 'kilo'), join(data, 'kilo'), { recursive: true })
    const today = new Date()
    utimesSync(join(data, 'kilo', 'kilo.db'), today, today)
    const call = contractCaller(runtime({}, { env: { XDG_DATA_HOME: data } }))
    const { items } = await call('workspaces.listAll', {})
    // The latest time_updated of its one session (fixtures/kilo-cli/make-fixtures.mjs).
    expect(items.find((item) => item.path === '/home/dev/pomodoro')?.lastActivityAt).toBe(1_775_139_001_000)
  })
})
