import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'vitest'
import { importTestbed } from '../import-testbed'
import { conformanceSets } from './corpus'
import { importSet } from './import-set'
import { databaseOf } from '../../../store/raw-database'

/**
 * Not a check: measures Retrace's figures of every case into CONFORMANCE_MEASURE (a folder), with
 * its sessions and import report, for writing a changed figure into expected.json by hand after
 * a change meant to move it. Skipped unless the variable is set:
 *   CONFORMANCE_MEASURE=/tmp/measured npx vitest run src/main/sources/testing/conformance/measure.test.ts
 */
const OUT = process.env.CONFORMANCE_MEASURE
const testbed = importTestbed('retrace-conformance-')

describe.skipIf(!OUT)('measure the conformance corpus', () => {
  for (const { set, cases } of conformanceSets()) {
    for (const c of cases) {
      it(`${set}: ${c.name}`, async () => {
        const { figures, runtime, report } = await importSet(set, c.layout, testbed)
        const sessions = databaseOf(runtime.store)
          .prepare(`SELECT s.source_session_id AS id, s.kind, s.title, s.message_count AS messages, s.turn_count AS turns, s.fork_seq AS forkSeq,
            p.source_session_id AS parent FROM sessions s LEFT JOIN sessions p ON p.id = s.parent_id ORDER BY s.id`)
          .all()
        mkdirSync(OUT ?? '', { recursive: true })
        writeFileSync(join(OUT ?? '', `${set}--${c.name.replace(/\W+/g, '-')}.json`), `${JSON.stringify({ figures, sessions, report }, null, 1)}\n`)
      }, 120_000)
    }
  }
})
