import { APP_VERSION } from '../runtime/version'
import { COMMANDS } from './table'
import { OPTIONS } from './table/options'
import type { CommandSpec, UsageForm } from './table/spec'

/** Where each command's description starts, and how wide a line of `retrace help` may be. */
const ABOUT_COLUMN = 45
const WIDTH = 108

/** `retrace NAME` and what follows it: the form's own synopsis, else the command's arguments and options. */
export function synopsisOf(spec: CommandSpec, form: UsageForm): string {
  if (form.synopsis !== undefined) return `retrace ${spec.name} ${form.synopsis}`
  const args = spec.args.map((arg) => (arg.required ? arg.name : `[${arg.name}]`))
  const options = spec.options.map((name) => {
    const option = OPTIONS[name]
    const text = option.kind === 'flag' ? `--${name}` : `--${name} ${option.placeholder}`
    if (spec.requires?.includes(name)) return text
    return option.kind === 'values' ? `[${text}]...` : `[${text}]`
  })
  return ['retrace', spec.name, ...args, ...options].join(' ')
}

/** The description, wrapped into the column beside (or below) the synopsis. */
function helpLines(synopsis: string, about: string): string[] {
  const words = about.split(' ')
  const lines: string[] = []
  let line = ''
  for (const word of words) {
    if (line && ABOUT_COLUMN + line.length + 1 + word.length > WIDTH) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(line)
  const indent = ' '.repeat(ABOUT_COLUMN)
  const head = `  ${synopsis}`
  if (head.length < ABOUT_COLUMN - 1) return [`${head.padEnd(ABOUT_COLUMN)}${lines[0] ?? ''}`, ...lines.slice(1).map((text) => `${indent}${text}`)]
  return [head, ...lines.map((text) => `${indent}${text}`)]
}

function usageText(): string {
  const forms = COMMANDS.flatMap((spec) => spec.usage.map((form) => ({ spec, form })))
  const groups = [...new Set(forms.map(({ form }) => form.group))].sort((a, b) => a - b)
  const body = groups.map((group) => forms.filter(({ form }) => form.group === group).flatMap(({ spec, form }) => helpLines(synopsisOf(spec, form), form.about)).join('\n'))
  return `Retrace ${APP_VERSION}: browse and rewind AI-agent history.

Usage:
${body.join('\n\n')}

A <session-id> (or <branch-id>) may also be the agent's own session id (what a hook passed as
--session, or the Claude Code / Codex id of an imported session), or the first characters of
either; a <rewind-id>, its first characters (several matches are listed, nothing done).
Every command takes --data-dir DIR (default: $RETRACE_HOME, else ~/.retrace). Every command first
finishes any rewind a crash interrupted, putting back only files nobody changed since. Exit codes:
0 done, 1 the command failed, 2 a usage error (or a change nobody confirmed: no terminal, no --yes).`
}

/** `retrace help`: every command of the table, one paragraph each, in its group. */
export const USAGE = usageText()
