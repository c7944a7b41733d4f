import type { PatchOp } from './apply-patch'
import { renderCommand, shellInvocation } from '../../../shared/shell-invocation'

/**
 * Codex's tools as they appear in rollouts, across versions:
 * - `shell` (and the older `container.exec`): `{command: string[] | string, workdir?}`, 0.77 fixtures;
 * - `shell_command`: `{command: string, workdir?}`;
 * - `exec_command` (unified exec): `{cmd: string, workdir?, …}`, 0.125 and Codex Desktop fixtures;
 *   `write_stdin` then feeds or polls that process and is not a new command;
 * - `local_shell_call` response items: `{action: {type: 'exec', command: string[], working_directory?}}`;
 * - `apply_patch` as a custom tool (raw patch input, 0.125 fixture), as a function (`{input}`),
 *   or smuggled through a shell call (`["apply_patch", patch]`, `bash -lc "apply_patch <<'EOF' …"`).
 */

export { renderCommand, SHELL_TOOLS, shellInvocation, type ShellInvocation } from '../../../shared/shell-invocation'

const SUMMARY_MAX = 200

/** First line of `text`, with a marker when more follows, cut to a readable length. */
export function oneLine(text: string, max = SUMMARY_MAX): string {
  const trimmed = text.trim()
  const newline = trimmed.indexOf('\n')
  let line = newline === -1 ? trimmed : `${trimmed.slice(0, newline).trimEnd()} …`
  if (line.length > max) line = `${line.slice(0, max - 1)}…`
  return line
}

/** A short one-line description of a tool call, the content of its `tool_call` message. */
export function toolSummary(toolName: string, input: unknown, patchOps: PatchOp[] | null): string {
  if (toolName === 'apply_patch' || patchOps) {
    if (!patchOps) return 'apply_patch (patch not understood)'
    return oneLine(`apply_patch: ${patchOps.map(describeOp).join(', ')}`)
  }
  const shell = shellInvocation(toolName, input)
  if (shell) return oneLine(renderCommand(shell.command))
  const o = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : null
  if (toolName === 'write_stdin' && o) {
    const session = typeof o.session_id === 'number' || typeof o.session_id === 'string' ? String(o.session_id) : '?'
    const chars = typeof o.chars === 'string' ? o.chars : ''
    return oneLine(chars ? `write_stdin → session ${session}: ${JSON.stringify(chars)}` : `write_stdin → session ${session} (poll)`)
  }
  if (toolName === 'update_plan' && o && Array.isArray(o.plan)) {
    const steps = o.plan as unknown[]
    const current = steps.find((s) => s && typeof s === 'object' && (s as Record<string, unknown>).status === 'in_progress') as
      | Record<string, unknown>
      | undefined
    const step = current && typeof current.step === 'string' ? `: ${current.step}` : ''
    return oneLine(`update_plan (${steps.length} step${steps.length === 1 ? '' : 's'})${step}`)
  }
  if (toolName === 'web_search' && o) {
    const query = typeof o.query === 'string' ? o.query : Array.isArray(o.queries) && typeof o.queries[0] === 'string' ? o.queries[0] : null
    return oneLine(query ? `web_search: ${query}` : `web_search (${typeof o.type === 'string' ? o.type : 'action'})`)
  }
  if (o) {
    for (const key of ['path', 'query', 'title', 'description', 'url', 'pattern']) {
      const value = o[key]
      if (typeof value === 'string' && value.trim()) return oneLine(`${toolName}: ${value}`)
    }
    return oneLine(`${toolName} ${JSON.stringify(o)}`)
  }
  if (typeof input === 'string' && input.trim()) return oneLine(`${toolName}: ${input}`)
  return toolName
}

function describeOp(op: PatchOp): string {
  switch (op.type) {
    case 'add':
      return `A ${op.path}`
    case 'delete':
      return `D ${op.path}`
    case 'update':
      return op.movePath ? `R ${op.path} → ${op.movePath}` : `M ${op.path}`
  }
}

/**
 * A tool output as text, with the exit status when Codex recorded one:
 * - shell (0.77): a JSON string `{"output": "...", "metadata": {"exit_code": N, "duration_seconds": s}}`,
 *   also used for `apply_patch` results: unwrapped to `output`;
 * - unified exec (0.125+): text with a header `Chunk ID / Wall time / Process exited with code N |
 *   Process running with session ID S / Original token count / Output:`; kept verbatim;
 * - freeform shell output (newer `shell_command`): `Exit code: N / Wall time / Output:`; verbatim;
 * - newer function outputs: an array of content items (`input_text`, `input_image`);
 * - an object `{content, success}` (older serialisations).
 */
export interface ToolOutput {
  text: string
  exitCode: number | null
  success: boolean | null
  images: string[]
}

export function readToolOutput(raw: unknown): ToolOutput {
  if (typeof raw === 'string') {
    const trimmed = raw.trimStart()
    if (trimmed.startsWith('{')) {
      try {
        const parsed = JSON.parse(trimmed) as unknown
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
          const o = parsed as Record<string, unknown>
          if (typeof o.output === 'string') {
            const meta = o.metadata && typeof o.metadata === 'object' ? (o.metadata as Record<string, unknown>) : {}
            const exitCode = typeof meta.exit_code === 'number' ? meta.exit_code : null
            return { text: o.output, exitCode, success: null, images: [] }
          }
        }
      } catch {
        // Not JSON after all: plain text output.
      }
    }
    return { text: raw, exitCode: unifiedExecExitCode(raw), success: null, images: [] }
  }
  if (Array.isArray(raw)) {
    const texts: string[] = []
    const images: string[] = []
    for (const item of raw as unknown[]) {
      if (!item || typeof item !== 'object') continue
      const o = item as Record<string, unknown>
      if (typeof o.text === 'string') texts.push(o.text)
      else if (typeof o.image_url === 'string') images.push(o.image_url)
    }
    return { text: texts.join('\n'), exitCode: null, success: null, images }
  }
  if (raw && typeof raw === 'object') {
    const o = raw as Record<string, unknown>
    const inner = readToolOutput(o.content ?? o.output ?? '')
    return { ...inner, success: typeof o.success === 'boolean' ? o.success : inner.success }
  }
  return { text: '', exitCode: null, success: null, images: [] }
}

/**
 * The exit code in the header of a text output, before its `Output:` line: `Process exited with
 * code N` (unified exec) or `Exit code: N` (the freeform shell output of newer releases).
 */
function unifiedExecExitCode(text: string): number | null {
  const headerEnd = text.indexOf('\nOutput:')
  if (headerEnd === -1) return null
  const m = /^(?:Process exited with code|Exit code:) (-?\d+)$/m.exec(text.slice(0, headerEnd))
  return m ? Number(m[1]) : null
}
