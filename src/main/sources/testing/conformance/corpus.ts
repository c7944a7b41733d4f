import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { FIXTURES } from '../claude-home'
import type { Figures } from './figures'

/**
 * The conformance corpus (fixtures/conformance): real histories other tools test themselves on,
 * one folder per set with LICENSE, PROVENANCE.txt and expected.json (see its README.md).
 */
export const CORPUS = join(FIXTURES, 'conformance')

export interface SetLayout {
  /** claude: a Claude config dir's `projects` folder; codex: a Codex home's `sessions`; langgraph: a project folder. */
  agent: 'claude' | 'codex' | 'langgraph'
  /** Where the agent's files are, relative to the set's folder (may point at an older fixture). */
  data: string
  /** claude: `data` is one project folder, to be filed under this name in `projects`. */
  project?: string
  /**
   * claude: the peer sanitised the recorded cwd into something that is no folder path; the copy
   * gets `from` replaced by `to` (same length, so every byte offset stays) and nothing else.
   */
  rewriteCwd?: { from: string; to: string }
}

/**
 * A figure other work on issue 24 changes. With `expected` (counted independently), it is asserted
 * once `item` is turned on in the test; without, it is only left out of the comparison then (its
 * new value is to be measured and written into `retrace`).
 */
export interface PendingFigure {
  figure: keyof Figures
  item: string
  expected?: unknown
  why: string
}

export interface ConformanceCase {
  name: string
  layout: SetLayout
  /** Retrace's figures after a real import, as they stand. */
  retrace: Partial<Figures>
  /** Figures of `independent` (same names) that Retrace's must equal. */
  agrees?: string[]
  pending?: PendingFigure[]
}

export interface ConformanceSet {
  set: string
  cases: ConformanceCase[]
  /**
   * Figures counted with the plain scripts in fixtures/conformance/count. Those named like a
   * figure of Retrace must equal it (unless pending); the others document the set.
   */
  independent: Record<string, unknown>
}

export function conformanceSets(): ConformanceSet[] {
  return readdirSync(CORPUS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(CORPUS, entry.name, 'expected.json')))
    .map((entry) => ({ set: entry.name, ...(JSON.parse(readFileSync(join(CORPUS, entry.name, 'expected.json'), 'utf8')) as Omit<ConformanceSet, 'set'>) }))
    .sort((a, b) => a.set.localeCompare(b.set))
}
