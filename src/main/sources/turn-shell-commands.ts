import { isReadOnlyCommand } from './read-only-command'

/** A message of a turn, as far as finding its shell command needs. */
export interface ShellCandidate {
  seq: number
  role: string
  content: string
  toolName: string | null
  /** The tool call's input as stored (JSON text), or null. */
  toolInput: string | null
}

/**
 * The shell commands a turn ran that may have written files (the ones its "not captured" count
 * counts), read back from its stored messages: a tool call's `command` (a string, or an argv
 * like Codex's `["bash", "-lc", "…"]`) or `cmd`, and Claude Code's `!` commands (`! cmd`
 * prompts). Read at display time so sessions imported before are listed too; a source whose
 * calls name their command otherwise is counted but not listed (the caller says how many).
 */
export function turnShellCommands(messages: readonly ShellCandidate[]): { seq: number; command: string }[] {
  const found: { seq: number; command: string }[] = []
  for (const message of messages) {
    const command = message.role === 'user' ? bangCommand(message.content) : message.role === 'tool_call' && SHELL_TOOL.test(message.toolName ?? '') ? inputCommand(message.toolInput) : null
    if (command !== null && command.trim() !== '' && !isReadOnlyCommand(command)) found.push({ seq: message.seq, command: command.trim() })
  }
  return found
}

/** The shell tools of the sources: Bash, shell, exec_command, run_shell_command, Shell, run_terminal_cmd, execute_command, powershell… */
const SHELL_TOOL = /bash|shell|exec|terminal|command|powershell/i

function bangCommand(content: string): string | null {
  return content.startsWith('! ') ? content.slice(2) : null
}

function inputCommand(toolInput: string | null): string | null {
  if (toolInput === null) return null
  let input: unknown
  try {
    input = JSON.parse(toolInput)
  } catch {
    return null
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return null
  const fields = input as Record<string, unknown>
  const command = fields.command ?? fields.cmd
  if (typeof command === 'string') return command
  if (Array.isArray(command) && command.every((part) => typeof part === 'string')) {
    const argv = command
    // `bash -lc "script"`, `sh -c "script"`: the script is the command.
    if (argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0] ?? '') && /^-l?c$/.test(argv[1] ?? '')) return argv[2] ?? null
    return argv.join(' ')
  }
  return null
}
