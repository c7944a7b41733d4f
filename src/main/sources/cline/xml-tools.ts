/**
 * Cline (before native tool calling) and its forks write a tool call as XML inside the assistant's
 * text: `<write_to_file><path>a.ts</path><content>…</content></write_to_file>` (Cline
 * `src/core/assistant-message/parse-assistant-message.ts`). The tool result comes back in the next
 * user message as text blocks headed `[write_to_file for 'a.ts'] Result:`.
 */

/** The tools of Cline, Roo Code and Kilo Code whose XML form is read as a tool call. */
const TOOL_NAMES = [
  'execute_command', 'read_file', 'write_to_file', 'replace_in_file', 'search_files', 'list_files',
  'list_code_definition_names', 'browser_action', 'use_mcp_tool', 'access_mcp_resource',
  'ask_followup_question', 'plan_mode_respond', 'attempt_completion', 'new_task', 'condense',
  'summarize_task', 'report_bug', 'new_rule', 'load_mcp_documentation', 'web_fetch', 'web_search',
  'apply_diff', 'insert_content', 'search_and_replace', 'switch_mode', 'update_todo_list',
  'codebase_search', 'fetch_instructions', 'run_slash_command', 'generate_image', 'focus_chain'
]
const TOOL_OPEN = new RegExp(`<(${TOOL_NAMES.join('|')})>`, 'g')
/** Parameters whose value may itself hold XML-looking text: they end at their last closing tag. */
const GREEDY_PARAMS = new Set(['content', 'diff'])

export type AssistantPart =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string }
  | { kind: 'tool'; name: string; input: Record<string, string>; raw: string }

/** An assistant text split into prose, `<thinking>` blocks and XML tool calls, in order. */
export function splitAssistantText(text: string): AssistantPart[] {
  const parts: AssistantPart[] = []
  let cursor = 0
  TOOL_OPEN.lastIndex = 0
  for (let match = TOOL_OPEN.exec(text); match; match = TOOL_OPEN.exec(text)) {
    const name = match[1] as string
    const close = `</${name}>`
    const end = text.indexOf(close, match.index + match[0].length)
    // A call cut off (an interrupted stream) is kept whole, up to the end of the text.
    const innerEnd = end === -1 ? text.length : end
    pushProse(parts, text.slice(cursor, match.index))
    const inner = text.slice(match.index + match[0].length, innerEnd)
    parts.push({ kind: 'tool', name, input: readParams(inner), raw: text.slice(match.index, end === -1 ? text.length : end + close.length) })
    cursor = end === -1 ? text.length : end + close.length
    TOOL_OPEN.lastIndex = cursor
  }
  pushProse(parts, text.slice(cursor))
  return parts
}

function pushProse(parts: AssistantPart[], prose: string): void {
  const thinking = /<thinking>([\s\S]*?)(?:<\/thinking>|$)/g
  let cursor = 0
  for (let match = thinking.exec(prose); match; match = thinking.exec(prose)) {
    pushText(parts, prose.slice(cursor, match.index))
    const reasoning = (match[1] ?? '').trim()
    if (reasoning) parts.push({ kind: 'reasoning', text: reasoning })
    cursor = match.index + match[0].length
  }
  pushText(parts, prose.slice(cursor))
}

function pushText(parts: AssistantPart[], text: string): void {
  const trimmed = text.trim()
  if (trimmed) parts.push({ kind: 'text', text: trimmed })
}

/** The `<param>value</param>` children of a tool call (nested XML, as Roo's `<args>`, stays text). */
function readParams(inner: string): Record<string, string> {
  const params: Record<string, string> = {}
  const open = /<([a-z_]+)>/g
  for (let match = open.exec(inner); match; match = open.exec(inner)) {
    const name = match[1] as string
    const close = `</${name}>`
    const start = match.index + match[0].length
    const end = GREEDY_PARAMS.has(name) ? inner.lastIndexOf(close) : inner.indexOf(close, start)
    if (end < start) continue
    const value = inner.slice(start, end)
    // Cline drops the newline after the opening tag and before the closing one of file content.
    params[name] = GREEDY_PARAMS.has(name) ? value.replace(/^\r?\n/, '').replace(/\r?\n$/, '') : value.trim()
    open.lastIndex = end + close.length
  }
  return params
}

/**
 * `[write_to_file for 'a.ts'] Result:`, `[update_todo_list] Result:`, Roo's `[new_task in 🪲 Debug
 * mode: '…'] Result:` and `[new_task completed] Result:`: the tool's name.
 */
export function toolResultHeader(text: string): string | null {
  const match = /^\[([a-z_]+)(?:\s[\s\S]*?)?\] Result:/.exec(text.trimStart())
  return match ? (match[1] as string) : null
}
