import type { Attachment } from '../records'

/**
 * Message content of Codex response items: arrays of `input_text` / `output_text` (and `text`)
 * parts, `input_image` parts (a data URL or a plain URL), in the Responses API shape.
 */

export interface FlatContent {
  /** The text parts, each as written. */
  texts: string[]
  attachments: Attachment[]
}

export function flattenContent(content: unknown): FlatContent {
  const texts: string[] = []
  const attachments: Attachment[] = []
  if (typeof content === 'string') {
    texts.push(content)
    return { texts, attachments }
  }
  if (!Array.isArray(content)) return { texts, attachments }
  for (const part of content as unknown[]) {
    if (typeof part === 'string') {
      texts.push(part)
      continue
    }
    if (!part || typeof part !== 'object') continue
    const p = part as Record<string, unknown>
    if (typeof p.text === 'string' && (p.type === 'input_text' || p.type === 'output_text' || p.type === 'text' || p.type === undefined)) {
      texts.push(p.text)
    } else if (p.type === 'input_image' || p.type === 'image') {
      const url = typeof p.image_url === 'string' ? p.image_url : typeof p.url === 'string' ? p.url : null
      attachments.push(imageAttachment(url))
    } else if (p.type === 'refusal' && typeof p.refusal === 'string') {
      texts.push(p.refusal)
    }
  }
  return { texts, attachments }
}

/** A data URL keeps its base64 payload; any other reference is kept by name only. */
export function imageAttachment(url: string | null): Attachment {
  if (url) {
    const m = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(url)
    if (m) {
      return m[2] ? { mediaType: m[1]!, data: m[3]! } : { mediaType: m[1]!, data: Buffer.from(decodeURIComponent(m[3]!)).toString('base64') }
    }
    return { mediaType: mediaTypeOfPath(url), data: null, name: url }
  }
  return { mediaType: 'image/*', data: null }
}

function mediaTypeOfPath(path: string): string {
  const ext = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(path)?.[1]?.toLowerCase()
  switch (ext) {
    case 'png':
      return 'image/png'
    case 'jpg':
    case 'jpeg':
      return 'image/jpeg'
    case 'gif':
      return 'image/gif'
    case 'webp':
      return 'image/webp'
    default:
      return 'image/*'
  }
}

/**
 * Markers of the user-role messages Codex writes for the model rather than from the user
 * (codex-rs `contextual_user_message.rs` / `user_instructions.rs`): environment context, AGENTS.md
 * and user instructions, skills, `!` shell commands, aborted-turn and sub-agent notices. Codex
 * itself treats a user message as contextual, not a turn, when ANY of its text parts starts with
 * one of these; so does Retrace. Both fixtures' first user messages are such (`# AGENTS.md
 * instructions for <cwd>` + `<environment_context>`), as one message with two parts (0.125) or
 * two messages (0.77).
 */
const CONTEXTUAL_PREFIXES = [
  '<environment_context>',
  '<user_instructions>',
  '# agents.md instructions for',
  '<skill>',
  '<user_shell_command>',
  '<turn_aborted>',
  '<context_update>',
  '<tool_context>',
  '<reasoning_context>',
  '<pinned_notes>',
  '<subagent_notification>'
]

export function isContextualText(text: string): boolean {
  const lowered = text.trimStart().slice(0, 40).toLowerCase()
  return CONTEXTUAL_PREFIXES.some((prefix) => lowered.startsWith(prefix))
}

export function isContextualUserMessage(texts: readonly string[]): boolean {
  return texts.some(isContextualText)
}
