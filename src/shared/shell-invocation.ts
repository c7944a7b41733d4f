import { isShell } from './apply-patch'

/*
 * Codex's shell-like tools (see sources/codex/tools.ts for every form across versions), in
 * shared/ so the importer and the window read a call's command the same way.
 */

export const SHELL_TOOLS = new Set(['shell', 'container.exec', 'shell_command', 'exec_command', 'local_shell'])

export interface ShellInvocation {
  /** argv, or a script string (`exec_command`'s `cmd`, `shell_command`'s `command`). */
  command: readonly string[] | string
  workdir: string | null
}

/** The command a shell-like tool call runs, or null when the tool is not one (or its input has none). */
export function shellInvocation(toolName: string, input: unknown): ShellInvocation | null {
  if (!SHELL_TOOLS.has(toolName) || !input || typeof input !== 'object') return null
  const o = input as Record<string, unknown>
  const workdir = typeof o.workdir === 'string' ? o.workdir : typeof o.working_directory === 'string' ? o.working_directory : null
  const command = toolName === 'exec_command' ? o.cmd : o.command
  if (typeof command === 'string') return { command, workdir }
  if (Array.isArray(command) && command.every((a) => typeof a === 'string')) return { command, workdir }
  return null
}

/**
 * One line of text for a command: `bash -lc <script>` is shown as the script, other argv joined
 * with POSIX quoting where needed. A multi-line script keeps its newlines (heredocs depend on
 * them); `toolSummary` is the one-line form.
 */
export function renderCommand(command: readonly string[] | string): string {
  if (typeof command === 'string') return command
  const [first, second, third] = command
  if (command.length === 3 && first !== undefined && isShell(first) && (second === '-lc' || second === '-c') && third !== undefined) {
    return third
  }
  return command.map(quoteArg).join(' ')
}

function quoteArg(arg: string): string {
  if (arg !== '' && /^[\w@%+=:,./-]+$/.test(arg)) return arg
  return `'${arg.replace(/'/g, `'\\''`)}'`
}

