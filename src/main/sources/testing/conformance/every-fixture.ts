import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import type { SourceAdapter } from '../../adapter'
import { SOURCE_ADAPTERS } from '../../registry'
import { filesInSourceFolder } from '../../source-folders'
import { FIXTURES } from '../claude-home'
import { CORPUS, type ConformanceSet } from './corpus'

/** A folder of real agent files to add as one source's history, found by the source's own discovery. */
export interface FixtureRoot {
  source: SourceAdapter['name']
  /** The folder under fixtures/ it came from (for messages). */
  fixture: string
  /** The copy to import from (a Claude Code project folder is filed under a `projects` folder). */
  path: string
}

/** fixtures/<folder> → the source whose files it holds (the folder's name, or Kilo's, read by OpenCode's importer). */
const FOLDER_SOURCE: Record<string, SourceAdapter['name']> = { 'kilo-cli': 'opencode' }
/** Conformance layouts name the agent's home layout (corpus.ts SetLayout). */
const LAYOUT_SOURCE: Record<ConformanceSet['cases'][number]['layout']['agent'], SourceAdapter['name']> = { claude: 'claude-code', codex: 'codex', langgraph: 'langgraph' }
const MAX_DEPTH = 5

/**
 * Every set of real files of every source, as a user would add them (`workspaces.addSourceFolder`):
 * each folder under fixtures/<agent>/ and fixtures/conformance/<set>/ where the source's own
 * discovery finds histories no shallower folder gave, copied to `tempDir` first. Claude Code's
 * fixtures are kept as its `projects` folder or one project folder: those are filed in a config
 * folder's `projects`, the only layout its discovery reads. No file is named here: a fixture added
 * later is imported by the same rule.
 */
export async function everyFixtureRoot(tempDir: string): Promise<FixtureRoot[]> {
  const copy = join(tempDir, 'fixtures')
  cpSync(FIXTURES, copy, { recursive: true })
  const roots: FixtureRoot[] = []
  const seen = new Set<string>()
  const consider = async (source: SourceAdapter['name'], fixture: string, dir: string, depth: number): Promise<void> => {
    const adapter = SOURCE_ADAPTERS.find((candidate) => candidate.name === source)
    if (!adapter || depth > MAX_DEPTH) return
    for (const candidate of layoutsOf(source, dir, tempDir, roots.length)) {
      const found = (await filesInSourceFolder(adapter, candidate)).filter((file) => !seen.has(keyOf(source, file.path, candidate)))
      if (found.length === 0) continue
      for (const file of found) seen.add(keyOf(source, file.path, candidate))
      roots.push({ source, fixture: relative(copy, dir), path: candidate })
    }
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) await consider(source, fixture, join(dir, entry.name), depth + 1)
    }
  }
  for (const entry of readdirSync(copy, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'conformance') continue
    await consider(FOLDER_SOURCE[entry.name] ?? (entry.name as SourceAdapter['name']), entry.name, join(copy, entry.name), 0)
  }
  // Conformance sets whose files live in the set's folder (the others point at fixtures/<agent>/).
  for (const set of readdirSync(join(copy, 'conformance'), { withFileTypes: true })) {
    const expected = join(CORPUS, set.name, 'expected.json')
    if (!set.isDirectory() || !existsSync(expected)) continue
    const { cases } = JSON.parse(readFileSync(expected, 'utf8')) as Pick<ConformanceSet, 'cases'>
    for (const c of cases) {
      const data = join(copy, 'conformance', set.name, c.layout.data)
      if (!relative(join(copy, 'conformance', set.name), data).startsWith('..') && existsSync(data)) await consider(LAYOUT_SOURCE[c.layout.agent], `conformance/${set.name}`, data, 0)
    }
  }
  return roots
}

/** The forms a folder can be added in: as it is, and for Claude Code filed in a config folder. */
function layoutsOf(source: string, dir: string, tempDir: string, index: number): string[] {
  if (source !== 'claude-code') return [dir]
  const entries = readdirSync(dir, { withFileTypes: true })
  const holdsSessions = entries.some((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
  const holdsProjects = !holdsSessions && entries.some((entry) => entry.isDirectory() && readdirSync(join(dir, entry.name)).some((name) => name.endsWith('.jsonl')))
  if (!holdsSessions && !holdsProjects) return [dir]
  const home = join(tempDir, `claude-${index}`)
  const projects = join(home, 'projects')
  mkdirSync(projects, { recursive: true })
  cpSync(dir, holdsSessions ? join(projects, basename(dir)) : projects, { recursive: true })
  return statSync(home).isDirectory() ? [home] : []
}

/** One file once: Claude Code's copies are keyed by their place under `projects`, the others by their path. */
function keyOf(source: string, path: string, root: string): string {
  return `${source}\0${source === 'claude-code' ? relative(root, path) : path}`
}
