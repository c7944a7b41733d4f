import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeProjectFolder } from '../../src/main/sources/claude-code/project-folder'
import { createRng, type Rng } from '../lib/prng'
import { ownId, render, samples, type Sample } from './samples'

// The scale benchmark's history: a heavy user's `~/.claude` and `~/.codex` made of real agent
// files (samples.ts) copied under new ids, spread over a year and over workspaces of skewed
// sizes (one of 1,000 sessions, one of 500, the rest tailing off). Deterministic, and cached
// under the OS temp folder by its parameters, so a second run reuses the files.

export interface CorpusOptions {
  sessions: number
  workspaces: number
}

export interface ScaleCorpus {
  /** The user's home: `.claude/`, `.codex/` and `workspaces/` (the folders the sessions ran in). */
  home: string
  /** Environment the importer reads it from. */
  env: Record<string, string>
  bytes: number
  sessions: number
  /** Lines that become messages (about what the importer counts). */
  messages: number
  workspaces: number
  /** A file listing every session file, one a line (for the bare parse). */
  fileList: string
  /** Sessions of each workspace, by folder, largest first. */
  workspaceSessions: { folder: string; sessions: number }[]
  claudeSessions: number
  codexSessions: number
}

const VERSION = 1
const YEAR_MS = 365 * 24 * 3600_000
const FIRST_DAY = Date.UTC(2025, 11, 1)

/** The corpus of these parameters: made once, then reused from the cache. */
export function ensureCorpus(options: CorpusOptions): ScaleCorpus {
  const root = join(tmpdir(), 'retrace-bench-scale', `v${VERSION}-${options.sessions}s-${options.workspaces}w`)
  const manifest = join(root, 'corpus.json')
  if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')) as ScaleCorpus
  rmSync(root, { recursive: true, force: true })
  const corpus = writeCorpus(root, options)
  writeFileSync(manifest, JSON.stringify(corpus, null, 2))
  return corpus
}

/**
 * Sessions per workspace: the first holds 1,000 (the sessions.list / tree target's size), the
 * second 500, the rest share what is left by 1/(rank+5), as a few projects take most of a
 * user's work. Smaller corpora scale the two big ones down.
 */
export function workspaceSizes(sessions: number, workspaces: number): number[] {
  const first = Math.min(1000, Math.floor(sessions / 5))
  const second = Math.min(500, Math.floor(sessions / 10))
  const rest = sessions - first - second
  const weights = Array.from({ length: workspaces - 2 }, (_, rank) => 1 / (rank + 5))
  const total = weights.reduce((sum, weight) => sum + weight, 0)
  // Every workspace holds a session when there are enough to go round.
  const least = rest >= weights.length ? 1 : 0
  const sizes = weights.map((weight) => Math.max(least, Math.floor((rest * weight) / total)))
  let left = rest - sizes.reduce((sum, size) => sum + size, 0)
  for (let index = 0; left !== 0; index = (index + 1) % sizes.length) {
    const step = left > 0 ? 1 : -1
    if ((sizes[index] ?? 0) + step >= least) {
      sizes[index] = (sizes[index] ?? 0) + step
      left -= step
    }
  }
  return [first, second, ...sizes]
}

function shuffled<T>(items: T[], rng: Rng): T[] {
  for (let index = items.length - 1; index > 0; index--) {
    const other = rng.int(0, index)
    ;[items[index], items[other]] = [items[other] as T, items[index] as T]
  }
  return items
}

function weightedPick(pool: Sample[], rng: Rng): Sample {
  const total = pool.reduce((sum, sample) => sum + sample.weight, 0)
  let at = rng.next() * total
  for (const sample of pool) {
    at -= sample.weight
    if (at < 0) return sample
  }
  return pool[pool.length - 1] as Sample
}

function claudeSessionId(copy: number): string {
  return `${copy.toString(16).padStart(8, '0')}-0000-4000-8000-${copy.toString(16).padStart(12, '0')}`
}

function writeCorpus(root: string, { sessions, workspaces }: CorpusOptions): ScaleCorpus {
  const home = join(root, 'home')
  const rng = createRng(41)
  const sizes = workspaceSizes(sessions, workspaces)
  const folders = sizes.map((_, index) => join(home, 'workspaces', `project-${String(index).padStart(3, '0')}`))
  for (const folder of folders) mkdirSync(folder, { recursive: true })
  const owner = shuffled(sizes.flatMap((size, index) => Array.from({ length: size }, () => index)), rng)
  const pool = samples()
  const files: string[] = []
  let bytes = 0
  let messages = 0
  let claudeSessions = 0
  for (let copy = 0; copy < sessions; copy++) {
    const sample = weightedPick(pool, rng)
    const cwd = folders[owner[copy] ?? 0] ?? home
    // Spread over a year in order, a few minutes' jitter so no two start on the same beat.
    const startMs = FIRST_DAY + Math.floor((copy * YEAR_MS) / sessions) + rng.int(0, 600_000)
    const path = sample.source === 'codex' ? codexPath(home, sample, copy, startMs) : join(home, '.claude', 'projects', encodeProjectFolder(cwd), `${claudeSessionId(copy)}.jsonl`)
    const text = render(sample, { copy, sessionId: claudeSessionId(copy), startMs, cwd })
    mkdirSync(join(path, '..'), { recursive: true })
    writeFileSync(path, text)
    files.push(path)
    bytes += Buffer.byteLength(text)
    messages += sample.messages
    if (sample.source === 'claude-code') claudeSessions += 1
  }
  const fileList = join(root, 'files.txt')
  writeFileSync(fileList, `${files.join('\n')}\n`)
  return {
    home,
    env: { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude'), CODEX_HOME: join(home, '.codex') },
    bytes,
    sessions,
    messages,
    workspaces,
    fileList,
    workspaceSessions: folders.map((folder, index) => ({ folder, sessions: sizes[index] ?? 0 })).sort((a, b) => b.sessions - a.sessions),
    claudeSessions,
    codexSessions: sessions - claudeSessions
  }
}

/** `~/.codex/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl`, as Codex names them. */
function codexPath(home: string, sample: Sample, copy: number, startMs: number): string {
  const first = sample.holes.find((hole) => hole.kind === 'uuid')
  if (first?.kind !== 'uuid') throw new Error(`${sample.path}: no session id`)
  const iso = new Date(startMs).toISOString()
  const [year, month, day] = iso.slice(0, 10).split('-')
  const stamp = iso.slice(0, 19).replace(/:/g, '-')
  return join(home, '.codex', 'sessions', year ?? '', month ?? '', day ?? '', `rollout-${stamp}-${ownId(first.head + first.tail, copy)}.jsonl`)
}
