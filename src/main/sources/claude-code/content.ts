import type { Attachment } from '../records'
import { type Block, BlockSchema, MediaBlockSchema, TextBlockSchema } from './schema'

/** Text and attachments flattened out of a list of content blocks. */
export interface FlatContent {
  text: string
  attachments: Attachment[]
}

/**
 * An image or document block as an attachment, and the short placeholder the message text
 * gets instead of the base64 data (`[image: image/png]`).
 */
export function mediaAttachment(block: Block): { attachment: Attachment; placeholder: string } | null {
  const parsed = MediaBlockSchema.safeParse(block)
  if (!parsed.success) return null
  const { type, source, title } = parsed.data
  const mediaType = source.media_type ?? (type === 'image' ? 'image/*' : 'application/octet-stream')
  // Only base64 sources carry bytes; a url or file reference is kept by name.
  const data = source.type === 'base64' && source.data ? source.data : null
  const name = title ?? source.url ?? undefined
  const attachment: Attachment = name ? { mediaType, data, name } : { mediaType, data }
  return { attachment, placeholder: `[${type}: ${title ?? mediaType}]` }
}

/**
 * Text of user-message or tool-result blocks, joined by newlines; images and documents become
 * attachments with a placeholder in the text; other blocks (`tool_reference`, …) a `[type]` mark.
 */
export function flattenBlocks(content: unknown): FlatContent {
  if (content == null) return { text: '', attachments: [] }
  if (typeof content === 'string') return { text: content, attachments: [] }
  const parts: string[] = []
  const attachments: Attachment[] = []
  for (const item of Array.isArray(content) ? (content as unknown[]) : [content]) {
    const parsed = BlockSchema.safeParse(item)
    if (!parsed.success) {
      if (typeof item === 'string') parts.push(item)
      else if (item != null) parts.push(JSON.stringify(item))
      continue
    }
    const block = parsed.data
    const text = TextBlockSchema.safeParse(block)
    if (text.success) {
      parts.push(text.data.text)
      continue
    }
    const media = mediaAttachment(block)
    if (media) {
      attachments.push(media.attachment)
      parts.push(media.placeholder)
      continue
    }
    parts.push(otherBlockText(block))
  }
  return { text: parts.join('\n'), attachments }
}

/** A block of a kind without text: `title (url)` for search results, else `[type: name]`. */
function otherBlockText(block: Block): string {
  const field = (key: string) => {
    const value = block[key]
    return typeof value === 'string' && value !== '' ? value : null
  }
  const title = field('title')
  const url = field('url')
  if (title && url) return `${title} (${url})`
  const name = field('name') ?? field('tool_name') ?? url ?? title
  return name ? `[${block.type}: ${name}]` : `[${block.type}]`
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g

/** Text without terminal colour codes (local-command output keeps them). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '')
}

/** Whitespace collapsed to single spaces, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat
}

function tag(text: string, name: string): string | null {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(text)
  return match ? (match[1] ?? '') : null
}

/**
 * What a user line's text is. Claude Code writes more than prompts as `user` lines:
 * - `prompt`: something the user typed; opens a turn.
 * - `command`: a slash command (`<command-name>/compact</command-name><command-args>…`); the
 *   text becomes `/name args`. It opens a turn when it asks the model something (custom, plugin
 *   and skill commands, `/init`: an `isMeta` expansion follows). A local command, which Claude
 *   Code answers itself (`/model`, `/mcp`, `/clear`, `/compact`, `/exit`…), is a system line: the
 *   parser knows it by the caveat line it hangs below (`isLocalCommandCaveat`). See "Turns" in
 *   docs/conformance.md.
 * - `bash`: the user's own `!` shell command (`<bash-input>`); opens a turn and may change files.
 * - `system`: output and boilerplate the user did not type: local-command stdout/stderr and
 *   caveats, `!` command output, background-task notifications, and the
 *   `[Request interrupted by user…]` marks (no snapshot is taken for any of them).
 */
export type UserText =
  | { kind: 'prompt'; text: string }
  | { kind: 'command'; text: string; args: string }
  | { kind: 'bash'; text: string; command: string }
  | { kind: 'system'; text: string }

const SYSTEM_TAGS = [
  'local-command-stdout',
  'local-command-stderr',
  'local-command-caveat',
  'bash-stdout',
  'bash-stderr',
  'task-notification'
]
const SYSTEM_TAG_PATTERN = new RegExp(`<(${SYSTEM_TAGS.join('|')})>([\\s\\S]*?)</\\1>`, 'g')

export function classifyUserText(raw: string): UserText {
  const text = raw.trim()
  // Only a line that is the command record: a prompt may well quote these tags.
  const isCommand = text.startsWith('<command-name>') || text.startsWith('<command-message>')
  const name = isCommand ? tag(text, 'command-name') : null
  const message = isCommand ? tag(text, 'command-message') : null
  if (name !== null || message !== null) {
    const command = (name ?? '').trim() || `/${(message ?? '').trim()}`
    const args = (tag(text, 'command-args') ?? '').trim()
    return { kind: 'command', text: args ? `${command} ${args}` : command, args }
  }
  const bash = tag(text, 'bash-input')
  if (bash !== null && text.startsWith('<bash-input>')) return { kind: 'bash', text: `! ${bash}`, command: bash }
  if (text.startsWith('[Request interrupted by user')) return { kind: 'system', text }
  if (SYSTEM_TAGS.some((name) => text.startsWith(`<${name}>`))) {
    // Every tag of the kind unwrapped (stdout and stderr come together), empty ones dropped.
    const unwrapped = text.replace(SYSTEM_TAG_PATTERN, (_match, _name, inner: string) => `${inner.trim()}\n`)
    return { kind: 'system', text: stripAnsi(unwrapped).replace(/\n{3,}/g, '\n\n').trim() }
  }
  return { kind: 'prompt', text: raw }
}

/** Blocks Claude Code adds to a prompt for the model: what the IDE shows, reminders. */
const INJECTED_BLOCKS = /<(ide_opened_file|ide_selection|system-reminder)>[\s\S]*?<\/\1>/g

/**
 * A prompt's own words, for its session's title: without the blocks Claude Code put around them
 * (`<ide_opened_file>The user opened the file … in the IDE…</ide_opened_file>`). '' when
 * there is nothing else.
 */
export function promptWords(text: string): string {
  return text.replace(INJECTED_BLOCKS, ' ').trim()
}

/** What the IDE extension adds around a prompt: the file open in the editor, the lines selected. */
const IDE_BLOCKS = /<(ide_opened_file|ide_selection)>([\s\S]*?)<\/\1>/g

/**
 * A prompt without the IDE's blocks, and those blocks' text (`The user opened the file … in the
 * IDE…`): context the extension added, which is not what the user typed.
 */
export function splitIdeContext(text: string): { prompt: string; context: string[] } {
  const context: string[] = []
  const prompt = text.replace(IDE_BLOCKS, (_match, _name, inner: string) => {
    if (inner.trim()) context.push(inner.trim())
    return ''
  })
  return { prompt: prompt.trim(), context }
}

const CAVEAT_PREFIXES = ['<local-command-caveat>', 'Caveat: The messages below were generated by the user while running local commands']

/**
 * The caveat Claude Code writes (as an `isMeta` user line) before the lines of local commands
 * and `!` shell commands, which those lines hang below: `<local-command-caveat>Caveat: …` in
 * 2.1, the bare sentence in 1.0 and 2.0.
 */
export function isLocalCommandCaveat(raw: string): boolean {
  const text = raw.trimStart()
  return CAVEAT_PREFIXES.some((prefix) => text.startsWith(prefix))
}

/** Text of a `local_command` system line: the command as `/name args`, or its output. */
export function localCommandText(raw: string): string {
  const classified = classifyUserText(raw)
  return classified.kind === 'prompt' ? stripAnsi(raw).trim() : classified.text
}

const PATH_KEYS = ['file_path', 'notebook_path', 'path'] as const

function str(input: Record<string, unknown>, key: string): string | null {
  const value = input[key]
  return typeof value === 'string' && value.trim() !== '' ? value : null
}

/** A one-line summary of a tool call's input: the Bash command, the file path, the query… */
export function summarizeToolInput(name: string, input: unknown, max = 200): string {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return input === undefined ? name : oneLine(JSON.stringify(input) ?? '', max)
  }
  const fields = input as Record<string, unknown>
  const pick = (...keys: string[]) => keys.map((key) => str(fields, key)).find((value) => value !== null) ?? null
  let summary: string | null = null
  switch (name) {
    case 'Bash':
      summary = pick('command')
      break
    case 'Glob':
    case 'Grep': {
      const pattern = pick('pattern')
      const where = pick('path', 'glob')
      summary = pattern && where ? `${pattern} in ${where}` : pattern
      break
    }
    case 'WebFetch':
      summary = pick('url')
      break
    case 'WebSearch':
      summary = pick('query')
      break
    case 'Task':
    case 'Agent': {
      const description = pick('description', 'prompt')
      const agent = pick('subagent_type')
      summary = description && agent ? `${description} (${agent})` : description
      break
    }
    case 'TodoWrite':
      summary = Array.isArray(fields.todos) ? `${fields.todos.length} todos` : null
      break
    case 'Skill':
      summary = pick('skill', 'command')
      break
  }
  summary ??= pick(...PATH_KEYS, 'command', 'url', 'query', 'pattern', 'description', 'prompt')
  return oneLine(summary ?? JSON.stringify(input) ?? name, max)
}
