import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodeProjectFolder } from '../../src/main/sources/claude-code/project-folder'
import { FIXTURES } from '../../src/main/sources/testing/claude-home'

// Histories for the import benchmark, made of real agent files (see fixtures/*/PROVENANCE.txt)
// copied under new ids: every copy is a session of its own, its uuids rewritten so no two
// copies share one, its recorded folder set to the bench's workspace. Deterministic.

/** What one corpus holds: where its agent home is, its files and bytes. */
export interface Corpus {
  name: string
  /** Environment the importer reads it from (CLAUDE_CONFIG_DIR or CODEX_HOME). */
  env: Record<string, string>
  files: string[]
  bytes: number
}

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-)([0-9a-f]{12})/g

/** The same text with every uuid made this copy's own (the last 12 hex digits carry the copy). */
function ownIds(text: string, copy: number): string {
  const tag = copy.toString(16).padStart(6, '0')
  return text.replace(UUID, (_, head: string, tail: string) => `${head}${tag}${tail.slice(6)}`)
}

function withCwd(text: string, cwd: string): string {
  return text.replace(/"cwd":"(?:[^"\\]|\\.)*"/g, `"cwd":${JSON.stringify(cwd)}`)
}

/** A real Claude Code session cut to about `bytes` at a line end (spotter, Claude Code 2.1.39). */
function claudeSample(bytes = 1024 * 1024): string {
  const text = readFileSync(join(FIXTURES, 'claude-code/spotter/projects-dir/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'), 'utf8')
  return text.slice(0, text.lastIndexOf('\n', bytes) + 1)
}

/** Every time in the text moved `minutes` later (copies of one session started one after another). */
function later(text: string, minutes: number): string {
  return text.replace(/"timestamp":"([^"]+)"/g, (whole, time: string) => {
    const moved = Date.parse(time) + minutes * 60_000
    return Number.isNaN(moved) ? whole : `"timestamp":"${new Date(moved).toISOString()}"`
  })
}

/** Title of the newest session of `claudeHistory`: what the window must let one open first. */
export const NEWEST_TITLE = 'The newest session of the history'

/**
 * A heavy user's history: `count` sessions of about 512 KB, each started a minute after the one
 * before; the newest carries a title of its own (a `custom-title` line, as Claude Code writes).
 */
export function claudeHistory(dir: string, workspace: string, count: number): Corpus {
  const root = join(dir, 'claude-history')
  const sample = withCwd(claudeSample(512 * 1024), workspace)
  const files = Array.from({ length: count }, (_, copy) => {
    const id = sessionId(copy)
    const title = copy === count - 1 ? `${JSON.stringify({ type: 'custom-title', customTitle: NEWEST_TITLE, sessionId: id })}\n` : ''
    return writeClaude(root, workspace, id, later(ownIds(sample, copy), copy) + title)
  })
  return corpus(`Claude Code, ${count} sessions`, { CLAUDE_CONFIG_DIR: root }, files)
}

/** A session file named by its id, its lines naming the same session. */
function writeClaude(root: string, workspace: string, name: string, text: string): string {
  text = text.replace(/"sessionId":"[^"]*"/g, `"sessionId":"${name}"`)
  const folder = join(root, 'projects', encodeProjectFolder(workspace))
  mkdirSync(folder, { recursive: true })
  const path = join(folder, `${name}.jsonl`)
  writeFileSync(path, text)
  return path
}

function corpus(name: string, env: Record<string, string>, files: string[]): Corpus {
  return { name, env, files, bytes: files.reduce((sum, path) => sum + readFileSync(path).length, 0) }
}

/** `count` sessions of about 1 MB each, one file each. */
export function claudeManyFiles(dir: string, workspace: string, count: number): Corpus {
  const root = join(dir, 'claude-many')
  const sample = withCwd(claudeSample(), workspace)
  const files = Array.from({ length: count }, (_, copy) => writeClaude(root, workspace, sessionId(copy), ownIds(sample, copy)))
  return corpus(`Claude Code, ${count} files`, { CLAUDE_CONFIG_DIR: root }, files)
}

/**
 * One session of `count` MB: the sample `count` times in one file, each copy going on from the
 * last line of the one before (a long session, not `count` sessions in one file).
 */
export function claudeOneFile(dir: string, workspace: string, count: number): Corpus {
  const root = join(dir, 'claude-one')
  const sample = withCwd(claudeSample(), workspace)
  const id = sessionId(0)
  let previousLast: string | null = null
  const parts: string[] = []
  for (let copy = 0; copy < count; copy++) {
    let text = ownIds(sample, copy + 1)
    if (previousLast) text = text.replace('"parentUuid":null', `"parentUuid":"${previousLast}"`)
    parts.push(text)
    previousLast = [...text.matchAll(/"uuid":"([^"]+)"/g)].at(-1)?.[1] ?? previousLast
  }
  return corpus(`Claude Code, 1 file`, { CLAUDE_CONFIG_DIR: root }, [writeClaude(root, workspace, id, parts.join(''))])
}

/** `count` small sessions of the real short and tool-heavy shapes (10 and 39 KB). */
export function claudeSmallFiles(dir: string, workspace: string, count: number): Corpus {
  const root = join(dir, 'claude-small')
  const samples = ['short.jsonl', 'tool_heavy.jsonl'].map((name) => withCwd(readFileSync(join(FIXTURES, 'claude-code/spotter', name), 'utf8'), workspace))
  const files = Array.from({ length: count }, (_, copy) => writeClaude(root, workspace, sessionId(copy), ownIds(samples[copy % 2] ?? '', copy)))
  return corpus(`Claude Code, ${count} small files`, { CLAUDE_CONFIG_DIR: root }, files)
}

/** `count` Codex rollouts of about 1 MB (a real sanitised Codex Desktop 0.104 rollout). */
export function codexManyFiles(dir: string, workspace: string, count: number): Corpus {
  const root = join(dir, 'codex')
  const sample = withCwd(readFileSync(join(FIXTURES, 'codex/localpush/sessions/2026/02/23/rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl'), 'utf8'), workspace)
  const day = join(root, 'sessions', '2026', '02', '23')
  mkdirSync(day, { recursive: true })
  const files = Array.from({ length: count }, (_, copy) => {
    const path = join(day, `rollout-2026-02-23T12-54-34-${sessionId(copy)}.jsonl`)
    writeFileSync(path, ownIds(sample, copy))
    return path
  })
  return corpus(`Codex, ${count} files`, { CODEX_HOME: root }, files)
}

function sessionId(copy: number): string {
  return `${copy.toString(16).padStart(8, '0')}-0000-4000-8000-${copy.toString(16).padStart(12, '0')}`
}

/**
 * One session of about `count` MB with, in its middle, a `progress` line of 90 MB: the real
 * session's own hook progress line, its output grown (Claude Code streams such snapshots; some
 * reach 70-95 MB). Longer than a line may be: reported, never read whole.
 */
export function claudeHugeLine(dir: string, workspace: string, count: number): Corpus {
  const root = join(dir, 'claude-huge-line')
  const sample = withCwd(claudeSample(), workspace)
  const lines = sample.split('\n')
  const progress = JSON.parse(lines.find((line) => line.includes('"type":"progress"')) ?? '{}') as { data?: Record<string, unknown> }
  const huge = JSON.stringify({ ...progress, data: { ...progress.data, output: 'drwxr-xr-x  2 user user  4096 lib/spotter/telemetry/otel.ex\n'.repeat(Math.ceil((90 * 1024 * 1024) / 62)) } })
  const parts = Array.from({ length: count }, (_, copy) => ownIds(sample, copy + 1))
  parts.splice(Math.max(1, Math.floor(count / 2)), 0, `${huge}\n`)
  return corpus(`Claude Code, 1 file with a 90 MB line`, { CLAUDE_CONFIG_DIR: root }, [writeClaude(root, workspace, sessionId(0), parts.join(''))])
}
