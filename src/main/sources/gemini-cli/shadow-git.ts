import { execFile } from 'node:child_process'
import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path'
import { isWithin } from '../files'
import type { Conversation } from './conversation'
import { needsBefore } from './file-edits'
import { asObject, asString, epochOf } from './parts'

/** A commit id as Gemini's GitService writes it (nothing else is passed to git). */
const COMMIT = /^[0-9a-f]{7,64}$/
/** Checkpoint files hold the whole chat history: larger ones are not read. */
const MAX_CHECKPOINT_BYTES = 64 * 1024 * 1024
/** `<ISO time, ':' → '-', '.' → '_'>-<file name>-<tool>.json` (generateCheckpointFileName). */
const CHECKPOINT_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-(\d{2})_(\d{3})Z-/

interface Checkpoint {
  key: string
  commit: string
  at: number | undefined
}

/**
 * Before-contents of the session's file edits that kept no `FileDiff` (older versions), from
 * Gemini's own checkpoints, when checkpointing was on: before approving `write_file` or
 * `replace`, Gemini commits the whole project into a shadow repository
 * (`~/.gemini/history/<project>/.git`, work tree: the project) and writes
 * `tmp/<project>/checkpoints/<time>-<file>-<tool>.json` with `{toolCall{name,args}, commitHash}`
 * (checkpointUtils.ts). A call is matched to the checkpoint of the same tool and arguments
 * written last before it; the file is read from that commit with `git cat-file` only, without
 * locks: nothing is written in the repository. Tool call id → content; absent when unknown.
 */
export async function checkpointBefores(sessionFile: string, projectRoot: string | null, conversation: Conversation): Promise<Map<string, string>> {
  const befores = new Map<string, string>()
  const listed = conversation.events.flatMap((event): unknown[] => (event.kind === 'message' && Array.isArray(event.message.toolCalls) ? (event.message.toolCalls as unknown[]) : []))
  const calls = listed.flatMap((value) => {
    const call = asObject(value)
    return call && needsBefore(call) ? [call] : []
  })
  if (calls.length === 0 || projectRoot === null) return befores
  // chats/<file>, or chats/<parent>/<file> for a sub-agent.
  let projectDir = dirname(dirname(sessionFile))
  if (basename(projectDir) === 'chats') projectDir = dirname(projectDir)
  const gitDir = join(dirname(dirname(projectDir)), 'history', basename(projectDir), '.git')
  const checkpoints = await readCheckpoints(join(projectDir, 'checkpoints'))
  if (checkpoints.length === 0) return befores
  for (const call of calls) {
    const id = asString(call.id)
    const args = asObject(call.args) ?? {}
    const filePath = asString(args.file_path)
    if (id === undefined || filePath === undefined) continue
    const at = epochOf(call.timestamp)
    const key = keyOf(asString(call.name) ?? '', args)
    const match = checkpoints.filter((c) => c.key === key && (at === undefined || c.at === undefined || c.at <= at)).at(-1)
    const absolute: string = isAbsolute(filePath) ? filePath : join(projectRoot, filePath)
    if (!match || !isWithin(absolute, projectRoot) || absolute === projectRoot) continue
    const content = await blobAt(gitDir, match.commit, relative(projectRoot, absolute).split(sep).join('/'))
    if (content !== null) befores.set(id, content)
  }
  return befores
}

async function readCheckpoints(dir: string): Promise<Checkpoint[]> {
  let names: string[]
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort()
  } catch {
    return []
  }
  const checkpoints: Checkpoint[] = []
  for (const name of names) {
    try {
      const path = join(dir, name)
      if ((await stat(path)).size > MAX_CHECKPOINT_BYTES) continue
      const data = asObject(JSON.parse(await readFile(path, 'utf8')))
      const toolCall = asObject(data?.toolCall)
      const commit = asString(data?.commitHash)
      if (!toolCall || !commit || !COMMIT.test(commit)) continue
      const time = CHECKPOINT_TIME.exec(name)
      checkpoints.push({ key: keyOf(asString(toolCall.name) ?? '', asObject(toolCall.args) ?? {}), commit, at: time ? Date.parse(`${time[1]}:${time[2]}:${time[3]}.${time[4]}Z`) : undefined })
    } catch {
      // A checkpoint that is not JSON gives no before-content; the edit is reported as usual.
    }
  }
  return checkpoints
}

/** Tool name and arguments, key order aside (the checkpoint and the recording serialise the same object). */
function keyOf(name: string, args: Record<string, unknown>): string {
  return `${name}\0${JSON.stringify(Object.keys(args).sort().map((key) => [key, args[key]]))}`
}

/** `git cat-file blob <commit>:<path>` in the shadow repository; null when it is not there. */
function blobAt(gitDir: string, commit: string, path: string): Promise<string | null> {
  return new Promise((done) => {
    execFile(
      'git',
      ['--git-dir', gitDir, 'cat-file', 'blob', `${commit}:${path}`],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 10_000, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' } },
      (error, stdout) => done(error ? null : stdout)
    )
  })
}
