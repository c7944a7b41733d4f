import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { ChangeFeed } from '../events/change-feed'
import type { Recorder } from '../transcripts/recorder'
import type { Store } from '../store/store'
import { demoFiles } from './demo-files'
import { recordDemoHistory } from './demo-history'

export const DEMO_FOLDER = 'demo-workspace'

/**
 * Create the demo workspace if it is not there yet, and return its id. Idempotent: the files
 * are written only where missing (a user's edits are kept) and the history is recorded once.
 */
export function ensureDemoWorkspace(ctx: { store: Store; recorder: Recorder; feed: ChangeFeed }): number {
  const folder = join(ctx.store.dataDir, DEMO_FOLDER)
  mkdirSync(folder, { recursive: true })
  // The real path, so opening the same folder by hand finds this workspace rather than a twin.
  const id = ctx.store.workspaces.open(realpathSync(folder), 'notes (demo)', { isDemo: true })
  ctx.recorder.batch(() => {
    if (ctx.store.workspaces.get(id)?.sessionCount !== 0) return
    // First time only: afterwards the files are the user's to rewind, and must not come back.
    for (const [relative, content] of Object.entries(demoFiles)) {
      const file = join(folder, relative)
      if (existsSync(file)) continue
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, content)
    }
    recordDemoHistory(ctx.recorder, id, Date.now())
  })
  ctx.feed.changed(['workspaces', 'sessions'], { workspaceId: id })
  return id
}
