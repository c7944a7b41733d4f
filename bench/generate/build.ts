import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { openDatabase, type Db } from '../../src/main/store/database'
import { openStore } from '../../src/main/store/store'
import { removeDir } from '../lib/files'
import { bareCommit } from './bare-writer'
import { toBatches } from './batches'
import type { ContentFactory } from './content'
import { planSessions, type PlanConfig } from './plan'
import { recorderCommit } from './recorder-writer'
import { emptyTally, timedCommit, type WriteTally } from './write-stats'
import { databaseOf } from '../../src/main/store/raw-database'

export const WORKSPACE_NAME = 'bench-workspace'

export interface BuildOptions {
  plan: PlanConfig
  content: ContentFactory
  batchSize: number
  /** Leading messages also written by the bare reference, into its own fresh database. */
  sampleMessages: number
  /** Where the reference database goes; its folder is deleted once the sample is written. */
  referencePath: string
}

export interface StoreBuild {
  workspaceId: number
  /** The whole store, written by the recorder. */
  total: WriteTally
  /** The recorder and the reference over the same leading batches. */
  sample: { recorder: WriteTally; reference: WriteTally }
  wallMs: number
}

/**
 * Write the big store through the recorder. The first `sampleMessages` messages are also
 * written, batch by batch, into a fresh reference database by bare INSERTs. Interleaving the
 * two (alternating which goes first) puts both in the same moments of the run, so background
 * load or disk write-back cannot favour one side.
 */
export function buildStore(dataDir: string, options: BuildOptions): StoreBuild {
  const started = performance.now()
  const store = openStore(dataDir)
  let referenceDb: Db | null = openDatabase(options.referencePath)
  try {
    const workspaceDir = join(dataDir, WORKSPACE_NAME)
    mkdirSync(workspaceDir, { recursive: true })
    const workspaceId = store.workspaces.open(workspaceDir, WORKSPACE_NAME)
    const recorder = recorderCommit(store, workspaceId)
    const bare = bareCommit(referenceDb, openReferenceWorkspace(referenceDb, workspaceDir), workspaceDir)
    const build: StoreBuild = { workspaceId, total: emptyTally(), sample: { recorder: emptyTally(), reference: emptyTally() }, wallMs: 0 }
    let index = 0
    for (const batch of toBatches(planSessions(options.plan, options.content), options.batchSize)) {
      const inSample = build.sample.reference.messages < options.sampleMessages
      if (inSample && index % 2 === 1) timedCommit(bare, batch, build.sample.reference)
      timedCommit(recorder, batch, build.total, ...(inSample ? [build.sample.recorder] : []))
      if (inSample && index % 2 === 0) timedCommit(bare, batch, build.sample.reference)
      if (!inSample && referenceDb) {
        referenceDb.close()
        referenceDb = null
        removeDir(dirname(options.referencePath))
      }
      index += 1
      if (batch.messages > 0 && build.total.messages % 100_000 === 0) {
        process.stderr.write(`  ${build.total.messages.toLocaleString('en-US')} messages, recorder ${(build.total.writeMs / 1000).toFixed(0)} s\n`)
      }
    }
    // Fold the WAL into the database file so its size on disk is the store's real size.
    databaseOf(store).pragma('wal_checkpoint(TRUNCATE)')
    build.wallMs = performance.now() - started
    return build
  } finally {
    referenceDb?.close()
    store.close()
  }
}

/** The reference's workspace row, as the recorder's store gets from workspaces.open. */
function openReferenceWorkspace(db: Db, path: string): number {
  const now = Date.now()
  const insert = db.prepare('INSERT INTO workspaces (path, name, created_at, last_opened_at) VALUES (?, ?, ?, ?)')
  return Number(insert.run(path, WORKSPACE_NAME, now, now).lastInsertRowid)
}
