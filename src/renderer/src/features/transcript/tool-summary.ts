import type { Message } from '../../../../shared/contract'

type Json = Message['toolInput']

/** Input fields that say, in one line, what a tool call did — in order of preference. */
const TELLING_KEYS = ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'prompt', 'name']
const MAX_LENGTH = 140

/** One line for a collapsed tool call: `npm test`, `src/dates.ts`, or compact JSON. */
export function summarizeToolInput(input: Json): string {
  if (input === null) return ''
  if (typeof input === 'object' && !Array.isArray(input)) {
    for (const key of TELLING_KEYS) {
      const value = input[key]
      if (typeof value === 'string' && value.trim()) return clip(oneLine(value))
    }
  }
  return clip(oneLine(JSON.stringify(input)))
}

/** Pretty JSON for the expanded view, shown as text (never HTML). */
export function formatToolInput(input: Json): string {
  return input === null ? '(no input)' : JSON.stringify(input, null, 2)
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function clip(text: string): string {
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 1)}…` : text
}
