// Small readers for the untyped JSON every source parses: what a value is, and the text in it.
import { valueNestsDeeper } from '../transcripts/json-nesting'

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/**
 * A chat message's content as text: a string as it is, or a list of parts (multimodal and
 * tool-use blocks, `{type: 'text', text}`) read for their text, one part per line.
 */
export function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part) => (typeof part === 'string' ? part : isRecord(part) && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n')
}

/**
 * A tool call's arguments as the value they encode: OpenAI-style calls carry them as a JSON
 * string. Text that is not JSON, or that nests deeper than Retrace walks, is kept as text;
 * anything else is returned as it is.
 */
export function toolArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value
  let decoded: unknown
  try {
    decoded = JSON.parse(value) as unknown
  } catch {
    return value
  }
  return valueNestsDeeper(decoded) ? value : decoded
}
