/**
 * Gemini's `PartListUnion` (a string, one Part or a list of them; @google/genai) as text.
 * Thought parts are left out (Gemini CLI records thoughts apart, as `thoughts`), and so are
 * function calls (shown as tool calls); a function response gives its `output` (or `error`),
 * as Gemini CLI's own tools write them.
 */
export function partsText(parts: unknown): string {
  if (typeof parts === 'string') return parts
  if (Array.isArray(parts)) return parts.map(partText).filter((text) => text !== '').join('\n')
  return partText(parts)
}

function partText(part: unknown): string {
  if (typeof part === 'string') return part
  const o = asObject(part)
  if (!o || o.thought === true) return ''
  if (typeof o.text === 'string') return o.text
  const response = asObject(asObject(o.functionResponse)?.response)
  if (response) {
    if (typeof response.output === 'string') return response.output
    if (typeof response.error === 'string') return response.error
    return JSON.stringify(response)
  }
  const inline = asObject(o.inlineData)
  if (inline) return `[${typeof inline.mimeType === 'string' ? inline.mimeType : 'data'}]`
  const file = asObject(o.fileData)
  if (file && typeof file.fileUri === 'string') return `[${file.fileUri}]`
  return ''
}

export function asObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** An ISO timestamp as epoch milliseconds (undefined when absent or unreadable). */
export function epochOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  const ms = Date.parse(value)
  return Number.isFinite(ms) ? ms : undefined
}
