import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import type { HistoryFile, SnapshotRead, SnapshotSourceAdapter } from '../adapter'
import { readConversation } from './conversation'
import { discoverGeminiFiles, discoverGeminiWorkspace, geminiRoots } from './discover'
import { PROMPT_LOG, readPromptLogFile } from './prompt-log-file'
import { savedChatRecords, savedChatTag } from './saved-chat'
import { sessionRecords } from './session-records'
import { checkpointBefores } from './shadow-git'
import { startingCall } from './sub-agents'
import { fileTools } from './file-tools'

/**
 * Gemini CLI: the chat recordings of `~/.gemini/tmp/<project>/chats/` — legacy `session-*.json`
 * files (rewritten whole) and current `session-*.jsonl` files (appended, but a resumed `.json`
 * is copied into a new `.jsonl` and a failed load rewrites it). Each file is read whole and
 * re-imported when its size or time changes: a snapshot source of one session per file. The
 * project's prompt log (`logs.json`) gives the sessions that have no recording.
 */
export const geminiCliAdapter: SnapshotSourceAdapter = {
  kind: 'snapshot',
  name: 'gemini-cli',
  label: 'Gemini CLI',
  fileTools,
  roots: geminiRoots,
  discoverAll: discoverGeminiFiles,
  discover: discoverGeminiWorkspace,
  read: readSessionFile
}

async function readSessionFile(file: HistoryFile): Promise<SnapshotRead> {
  if (basename(file.path) === PROMPT_LOG) return readPromptLogFile(file)
  let text: string
  try {
    text = await readCurrent(file.path)
  } catch (error) {
    return { sessions: [], problems: [`Gemini CLI session file not readable: ${error instanceof Error ? error.message : String(error)}`] }
  }
  const tag = savedChatTag(basename(file.path))
  if (tag !== null) {
    return { sessions: [{ key: `checkpoint-${tag}`, fingerprint: file.fingerprint ?? '', forkedFrom: null, startedAt: file.startedAt, records: savedChatRecords(text, tag) }], problems: [] }
  }
  const conversation = readConversation(text)
  const key = typeof conversation.meta.sessionId === 'string' ? conversation.meta.sessionId : file.path
  const startedAt = Date.parse(typeof conversation.meta.startTime === 'string' ? conversation.meta.startTime : '')
  const parent = file.parentSessionId ? { sessionId: file.parentSessionId, toolCallId: await startingCall(file.path, file.parentSessionId, key) } : null
  return {
    sessions: [
      {
        key,
        fingerprint: file.fingerprint ?? '',
        forkedFrom: null,
        startedAt: Number.isFinite(startedAt) ? startedAt : file.startedAt,
        records: sessionRecords(conversation, parent, await checkpointBefores(file.path, file.cwd, conversation))
      }
    ],
    problems: []
  }
}

/** A resumed legacy `.json` goes on in the `.jsonl` of the same name (discover.ts): that is read. */
async function readCurrent(path: string): Promise<string> {
  if (path.endsWith('.json') && !savedChatTag(basename(path))) {
    try {
      return await readFile(`${path}l`, 'utf8')
    } catch {
      // Not resumed: the legacy file itself.
    }
  }
  return readFile(path, 'utf8')
}
