import { readFileSync } from 'node:fs'
import { isRecord, textOfContent } from '../plain-data'
import { time } from './store-db'

/** One serialized `y_core::types::Message`: a line of a context or display transcript. */
export interface TranscriptLine {
  /** 1-based line number in its file (for reports). */
  line: number
  messageId: string | null
  role: 'user' | 'assistant' | 'tool' | 'system'
  content: string
  /** Tool results: the call they answer. */
  toolCallId: string | null
  /** Assistant messages: the tools they call, with their full arguments. */
  toolCalls: { id: string; name: string; arguments: unknown }[]
  timestamp: number | undefined
  model: string | null
  /** `{"type":"compaction_summary"}` marks the summary that replaced compacted context. */
  isCompactionSummary: boolean
}

export interface Transcript {
  lines: TranscriptLine[]
  /** Lines that could not be read, with their numbers. */
  problems: string[]
}

const ROLES = new Set(['user', 'assistant', 'tool', 'system'])

/**
 * Read one JSONL transcript whole (null when the file does not exist). A line that is not a
 * message is reported by number and left out; the last line of a file cut off mid-write (no final
 * newline, incomplete JSON) is reported as such.
 */
export function readTranscript(path: string, label: string): Transcript | null {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    return { lines: [], problems: [`${label}: cannot be read (${(error as Error).message})`] }
  }
  const raw = text.split('\n')
  const endsCleanly = raw.at(-1) === ''
  if (endsCleanly) raw.pop()
  const lines: TranscriptLine[] = []
  const problems: string[] = []
  raw.forEach((source, index) => {
    const number = index + 1
    if (source.trim() === '') return
    const cutOff = !endsCleanly && index === raw.length - 1
    let value: unknown
    try {
      value = JSON.parse(source)
    } catch {
      problems.push(cutOff ? `${label}: line ${number} is cut off (the file ends without a newline in the middle of it); it is not imported` : `${label}: line ${number} is not valid JSON; it is not imported`)
      return
    }
    const line = transcriptLine(value, number)
    if (line) lines.push(line)
    else problems.push(`${label}: line ${number} is not a y-agent message (no known role); it is not imported`)
  })
  return { lines, problems }
}

function transcriptLine(value: unknown, line: number): TranscriptLine | null {
  if (!isRecord(value) || typeof value.role !== 'string' || !ROLES.has(value.role)) return null
  const metadata = isRecord(value.metadata) ? value.metadata : {}
  const calls = Array.isArray(value.tool_calls) ? value.tool_calls.filter(isRecord) : []
  return {
    line,
    messageId: typeof value.message_id === 'string' && value.message_id ? value.message_id : null,
    role: value.role as TranscriptLine['role'],
    content: textOfContent(value.content),
    toolCallId: typeof value.tool_call_id === 'string' ? value.tool_call_id : null,
    toolCalls: calls.map((call) => ({ id: typeof call.id === 'string' ? call.id : '', name: typeof call.name === 'string' && call.name ? call.name : 'tool', arguments: call.arguments ?? null })),
    timestamp: time(value.timestamp),
    model: typeof metadata.model === 'string' ? metadata.model : null,
    isCompactionSummary: metadata.type === 'compaction_summary'
  }
}
