import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { SnapshotRead, SnapshotSession } from '../adapter'
import type { SourceRecord } from '../records'
import { assistantRecords } from './assistant-records'
import { MAX_JSON_BYTES } from './read-task'
import { withSdkCheckpoints } from './sdk-checkpoints'
import { TaskContext } from './task-context'
import { isObject } from './ui-messages'
import { userRecords } from './user-records'

/**
 * Cline 4 (the SDK, `@cline/core`): `~/.cline/data/sessions/<id>/` holds the manifest `<id>.json`
 * (cwd, model, title, status) and the messages `<id>.messages.json` (`{version: 1, agent, sessionId,
 * messages: [{id, role, content: [text|thinking|tool_use|tool_result|file], ts, modelInfo, metrics}]}`,
 * sdk `docs/messages-contract-v1.md`), and one `<stem>.messages.json` per sub-agent. All are
 * rewritten whole: the session is imported again when the hash of its records changes.
 */
export function readSdkSession(dir: string): SnapshotRead {
  const id = basename(dir)
  const problems: string[] = []
  const manifest = readJson(join(dir, `${id}.json`))
  if (manifest.error && manifest.error !== 'missing') problems.push(`${id}/${id}.json: ${manifest.error}`)
  const info = isObject(manifest.value) ? manifest.value : {}
  const metadata = isObject(info.metadata) ? info.metadata : {}
  const cwd = stringOf(info.cwd) ?? stringOf(info.workspace_root)
  const sessions: SnapshotSession[] = []
  for (const name of names(dir)) {
    if (!name.endsWith('.messages.json')) continue
    const stem = name.slice(0, -'.messages.json'.length)
    const main = stem === id
    const file = readJson(join(dir, name))
    if (file.error || !isObject(file.value) || !Array.isArray(file.value.messages)) {
      problems.push(`${id}/${name}: ${file.error ?? 'no "messages" list'}; not imported`)
      continue
    }
    const key = main ? id : `${id}/${stem}`
    let built = messageRecords(key, file.value.messages, cwd)
    if (main && cwd) {
      const withCheckpoints = withSdkCheckpoints(built, metadata, cwd)
      built = withCheckpoints.records
      problems.push(...withCheckpoints.problems.map((problem) => `${id}/${problem}`))
    }
    const meta = built[0]
    if (meta?.kind === 'session-meta') {
      const title = main ? stringOf(metadata.title) : stringOf(file.value.taskType)
      if (title) Object.assign(meta, { title, titleOrigin: main ? 'ai' : 'first-prompt' })
      if (!main) meta.parent = { sessionId: id, kind: 'sub-agent' }
      meta.model ??= stringOf(info.model)
    }
    const startedAt = main ? (Date.parse(stringOf(info.started_at) ?? '') || undefined) : undefined
    const fingerprint = createHash('sha256').update(JSON.stringify(built)).digest('hex')
    sessions.push({ key, fingerprint, forkedFrom: null, startedAt: startedAt ?? (meta?.kind === 'session-meta' ? meta.createdAt : undefined), records: built })
  }
  if (sessions.length === 0 && problems.length === 0) problems.push(`${id}: no ${id}.messages.json`)
  return { sessions, problems }
}

function messageRecords(key: string, messages: unknown[], cwd: string | undefined): SourceRecord[] {
  const context = new TaskContext(key, undefined)
  context.plainPrompts = true
  context.cwd = cwd
  let startedAt: number | undefined
  messages.forEach((message: unknown, index) => {
    if (!isObject(message) || (message.role !== 'user' && message.role !== 'assistant')) {
      context.records.push({ kind: 'skipped', offset: index, reason: `messages[${index}]: not a message with a user or assistant role` })
      return
    }
    if (typeof message.ts === 'number') context.time = message.ts
    startedAt ??= context.time
    if (message.role === 'user') return userRecords(context, index, message.content)
    const modelInfo = isObject(message.modelInfo) ? message.modelInfo : {}
    context.envModel = stringOf(modelInfo.id) ?? context.envModel
    assistantRecords(context, index, message.content, usageOf(message.metrics))
  })
  const meta: SourceRecord = {
    kind: 'session-meta',
    offset: 0,
    sessionId: key,
    ...(context.firstPrompt ? { title: context.firstPrompt.split('\n')[0]?.slice(0, 120), titleOrigin: 'first-prompt' as const } : {}),
    ...(cwd ? { cwd } : {}),
    ...(context.model ? { model: context.model } : {}),
    ...(startedAt !== undefined ? { createdAt: startedAt } : {})
  }
  return [meta, ...context.records]
}

function usageOf(metrics: unknown) {
  if (!isObject(metrics)) return undefined
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0)
  return {
    inputTokens: count(metrics.inputTokens),
    outputTokens: count(metrics.outputTokens),
    cacheReadTokens: count(metrics.cacheReadTokens),
    cacheWriteTokens: count(metrics.cacheWriteTokens),
    ...(typeof metrics.cost === 'number' && metrics.cost >= 0 ? { costUsd: metrics.cost } : {})
  }
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

function readJson(path: string): { value?: unknown; error?: string } {
  let text: string
  try {
    const size = statSync(path).size
    if (size > MAX_JSON_BYTES) return { error: `${Math.round(size / 1024 / 1024)} MB, more than Retrace reads whole (${MAX_JSON_BYTES / 1024 / 1024} MB)` }
    text = readFileSync(path, 'utf8')
  } catch {
    return { error: 'missing' }
  }
  try {
    return { value: JSON.parse(text) as unknown }
  } catch (error) {
    return { error: `not valid JSON (${error instanceof Error ? error.message : String(error)})` }
  }
}
