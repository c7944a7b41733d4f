import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, type Stats } from 'node:fs'
import { homedir } from 'node:os'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import type { HistoryFile } from '../adapter'
import { isRecord } from '../plain-data'
import { statOrNull } from '../../fs/stat'

/**
 * The Cursor agent's own folder, `~/.cursor` (`%USERPROFILE%\.cursor` on Windows), where the CLI
 * (`cursor-agent`) and the editor's agent keep transcripts (`projects/<slug>/agent-transcripts/`)
 * and the CLI its chat stores (`chats/<md5 of the cwd>/<chat id>/store.db`).
 */
export function cursorHome(env: NodeJS.ProcessEnv): string {
  return resolve(env.HOME ?? env.USERPROFILE ?? homedir(), '.cursor')
}

/**
 * The folder name Cursor gives a workspace under `projects/`: the path with every run of other
 * characters than letters and digits made one `-`, without leading or trailing `-`
 * (`/Users/a/my.app` → `Users-a-my-app`; `C:\Code` → `c-Code`, the drive letter lower-cased).
 * Lossy, so it is only ever compared, never decoded.
 */
export function projectSlug(path: string): string {
  const slug = path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '')
  return /^[A-Za-z]:/.test(path) ? slug.charAt(0).toLowerCase() + slug.slice(1) : slug
}

/** `chats/<hash>/`: the CLI names a workspace's chats folder by the MD5 of its path. */
export function chatsHash(path: string): string {
  return createHash('md5').update(path).digest('hex')
}

/** The transcripts and CLI stores of one workspace, in every `.cursor` root. */
export function discoverCliWorkspace(workspace: string, roots: string[]): HistoryFile[] {
  const wanted = resolve(workspace)
  return cliRoots(roots).flatMap((root) => {
    const stores = chatStores(join(root, 'chats', chatsHash(wanted)), wanted)
    // A CLI chat with a store is read from it (it keeps results and the model), not from its transcript.
    const stored = new Set(stores.map((file) => file.sessionId))
    const transcripts = listOrEmpty(join(root, 'projects'))
      // Compared as slugs both: whether Cursor collapses `/.` into one `-` or two does not matter.
      .filter((slug) => projectSlug(slug) === projectSlug(wanted))
      .flatMap((slug) => transcriptFiles(join(root, 'projects', slug, 'agent-transcripts'), wanted))
      .filter((file) => !stored.has(file.sessionId))
    return [...transcripts, ...stores]
  })
}

/**
 * The `meta.json` Cursor keeps for a transcript's session (`chats/<md5 of cwd>/<id>/meta.json`:
 * `title`, `createdAtMs`), found from the transcript's path (`<root>/projects/<slug>/agent-transcripts/…`).
 */
export function sidecarOf(transcript: string, sessionId: string, cwd: string | null): string | null {
  let dir = dirname(transcript)
  while (basename(dir) !== 'agent-transcripts') {
    const up = dirname(dir)
    if (up === dir) return null
    dir = up
  }
  return cwd ? join(dirname(dirname(dirname(dir))), 'chats', chatsHash(cwd), sessionId, 'meta.json') : null
}

/**
 * Everything of the folders a chat's `meta.json` (`chats/<hash>/<id>/`) names as its `cwd`
 * (`import --all`): their stores, and their transcripts, found by the slug of that folder.
 * Transcripts name no folder, so a project no chat's `meta.json` names is left out.
 */
export function discoverCliAll(roots: string[]): HistoryFile[] {
  return cliRoots(roots).flatMap((root) => {
    const cwds = new Set<string>()
    for (const hash of listOrEmpty(join(root, 'chats'))) {
      for (const id of listOrEmpty(join(root, 'chats', hash))) {
        const cwd = cwdOfSidecar(join(root, 'chats', hash, id, 'meta.json'))
        if (cwd) cwds.add(cwd)
      }
    }
    return [...cwds].sort().flatMap((cwd) => discoverCliWorkspace(cwd, [root]))
  })
}

/**
 * The roots that are a `.cursor` folder, or a copy of one added as a source (it has `chats/` or
 * `projects/`); the others are the editor's `User` folders.
 */
function cliRoots(roots: string[]): string[] {
  const isCursorHome = (root: string) => basename(root) === '.cursor' || statOrNull(join(root, 'chats'))?.isDirectory() === true || statOrNull(join(root, 'projects'))?.isDirectory() === true
  return [...new Set(roots.map((root) => resolve(root)))].filter(isCursorHome)
}

/**
 * `agent-transcripts/<id>.txt` (plain text, 2025), `<id>.jsonl` and `<id>/<id>.jsonl` (the current
 * layout, with its sub-agents in `<id>/subagents/*.jsonl`, read with it).
 */
function transcriptFiles(dir: string, cwd: string): HistoryFile[] {
  const files: HistoryFile[] = []
  for (const name of listOrEmpty(dir).sort()) {
    const flat = name.endsWith('.jsonl') || name.endsWith('.txt') ? join(dir, name) : null
    const path = flat ?? join(dir, name, `${name}.jsonl`)
    const stats = statOrNull(path)
    if (!stats?.isFile()) continue
    const subagents = flat ? [] : listOrEmpty(join(dir, name, 'subagents')).filter((child) => child.endsWith('.jsonl'))
    const sessionId = basename(path).replace(/\.(jsonl|txt)$/, '')
    const sidecar = sidecarOf(path, sessionId, cwd)
    const parts = [stamp(stats), stamp(sidecar ? statOrNull(sidecar) : null), ...subagents.sort().map((child) => `${child}=${stamp(statOrNull(join(dir, name, 'subagents', child)))}`)]
    files.push({ source: 'cursor', path, sessionId, role: 'main', cwd, backupDir: null, fingerprint: parts.join(':') })
  }
  return files
}

/** `chats/<hash>/<id>/store.db`, each with the cwd its `meta.json` records (or the one asked for). */
function chatStores(dir: string, cwd: string | null): HistoryFile[] {
  const files: HistoryFile[] = []
  for (const id of listOrEmpty(dir).sort()) {
    const path = join(dir, id, 'store.db')
    const stats = statOrNull(path)
    if (!stats?.isFile()) continue
    const sidecar = join(dir, id, 'meta.json')
    const recorded = cwdOfSidecar(sidecar)
    const fingerprint = [stats, statOrNull(`${path}-wal`), statOrNull(sidecar)].map(stamp).join(':')
    files.push({ source: 'cursor', path, sessionId: id, role: 'main', cwd: cwd ?? recorded, backupDir: null, fingerprint })
  }
  return files
}

function cwdOfSidecar(path: string): string | null {
  const data = readSidecar(path)
  return typeof data?.cwd === 'string' && isAbsolute(data.cwd) ? resolve(data.cwd) : null
}

export function readSidecar(path: string): Record<string, unknown> | null {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as unknown
    return isRecord(data) ? data : null
  } catch {
    return null
  }
}

/** A transcript's sub-agents: `<session folder>/subagents/*.jsonl`. */
export function subagentTranscripts(mainTranscript: string): string[] {
  const dir = join(dirname(mainTranscript), 'subagents')
  if (basename(dirname(mainTranscript)) !== basename(mainTranscript, '.jsonl')) return []
  return listOrEmpty(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => join(dir, name))
}

function stamp(stats: Stats | null): string {
  return stats ? `${stats.size}@${stats.mtimeMs}` : '-'
}

function listOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

