import { IMPORT_SOURCES } from '../../../shared/contract'
import { HOOK_AGENTS, isHookAgent, type HookAgent } from '../../agent-hooks/agent-targets'
import type { SourceName } from '../../sources/adapter'
import { UsageError } from '../usage-error'

/** An option of the command line: a flag, a value (checked as it is parsed), or a value that may be given again. */
export type OptionSpec<T = unknown> =
  | { kind: 'flag'; short?: string; about?: string }
  | { kind: 'value'; placeholder: string; parse: (text: string, name: string) => T; short?: string }
  | { kind: 'values'; placeholder: string }

const flag = (short?: string): OptionSpec<boolean> => ({ kind: 'flag', ...(short ? { short } : {}) })
const text = (placeholder: string, short?: string): OptionSpec<string> => ({ kind: 'value', placeholder, parse: (value) => value, ...(short ? { short } : {}) })
const values = (placeholder: string): OptionSpec<string[]> => ({ kind: 'values', placeholder })

/** One of `choices`, shown as `a|b|c` in the usage. */
function choice<const C extends string>(choices: readonly C[], placeholder = choices.join('|')): OptionSpec<C> {
  return {
    kind: 'value',
    placeholder,
    parse: (value, name) => {
      const known = choices.find((candidate) => candidate === value)
      if (known === undefined) throw new UsageError(`--${name} must be ${orList(choices)}, not "${value}".`)
      return known
    }
  }
}

/** A whole number from 1 (`--turn`, `--change`, days); `what` says it in the refusal. */
function wholeFrom1(placeholder: string, what = 'a whole number from 1'): OptionSpec<number> {
  return {
    kind: 'value',
    placeholder,
    parse: (value, name) => {
      const number = Number(value)
      if (!/^\d+$/.test(value.trim()) || number < 1) throw new UsageError(`--${name} must be ${what}, not "${value}".`)
      return number
    }
  }
}

function port(): OptionSpec<number> {
  return {
    kind: 'value',
    placeholder: 'N',
    parse: (value) => {
      const number = Number(value)
      if (value.trim() === '' || !Number.isInteger(number) || number < 0 || number > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not "${value}".`)
      return number
    }
  }
}

/** A day, `YYYY-MM-DD` or `YYYYMMDD` (ccusage's `--since` form), as `YYYY-MM-DD`; a day that does not exist is refused. */
function day(): OptionSpec<string> {
  return {
    kind: 'value',
    placeholder: 'DATE',
    parse: (value, name) => {
      const match = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value.trim())
      const [year, month, date] = (match?.slice(1) ?? []).map(Number)
      const real = year !== undefined && month !== undefined && date !== undefined && new Date(year, month - 1, date).getDate() === date && month >= 1 && month <= 12
      if (!match || !real) throw new UsageError(`--${name} must be a day as YYYY-MM-DD or YYYYMMDD, not "${value}".`)
      return `${match[1]}-${match[2]}-${match[3]}`
    }
  }
}

/** `--agent NAME` (or a comma-separated list, or `all`): the agents hooks are written for. */
function agents(): OptionSpec<HookAgent[] | 'all'> {
  return {
    kind: 'value',
    placeholder: 'NAME|all',
    parse: (value) => {
      if (value === 'all') return 'all'
      const names = value.split(',').map((name) => name.trim())
      const unknown = names.filter((name) => !isHookAgent(name))
      if (unknown.length > 0 || names.length === 0) throw new UsageError(`--agent must be one of ${HOOK_AGENTS.join(', ')} or all, not "${unknown.join(',') || value}".`)
      return [...new Set(names as HookAgent[])]
    }
  }
}

/** Every option any command takes; each command names those it accepts (table/index.ts). */
export const OPTIONS = {
  'data-dir': text('DIR'),
  help: flag('h'),
  version: flag('v'),
  json: flag(),
  demo: flag(),
  port: port(),
  context: flag(),
  all: flag(),
  hidden: flag(),
  workspace: text('PATH'),
  turn: wholeFrom1('N', 'a whole number from 1 (turns count from 1)'),
  file: text('PATH'),
  'dry-run': flag(),
  yes: flag('y'),
  'on-conflict': choice(['skip', 'overwrite', 'keep-both']),
  'allow-sensitive': flag(),
  leave: values('PATH'),
  change: wholeFrom1('N', 'a whole number from 1 (`retrace restore FILE` lists the changes)'),
  session: text('ID'),
  name: text('NAME'),
  'with-files': flag(),
  in: choice(['claude-code', 'codex']),
  mode: choice(['append', 'replace']),
  'allow-rewind': flag(),
  hook: text('AGENT'),
  agent: agents(),
  scope: choice(['user', 'project']),
  'no-mcp': flag(),
  watch: flag(),
  source: choice<SourceName>(IMPORT_SOURCES, 'NAME'),
  path: text('DIR'),
  force: flag(),
  format: choice(['html', 'md', 'json']),
  out: text('FILE', 'o'),
  'no-redact': flag(),
  keep: values('ID'),
  'anonymize-path': flag(),
  'set-claude-retention': wholeFrom1('DAYS', 'a whole number of days (at least 1)'),
  'undo-claude-retention': flag(),
  found: flag(),
  since: day(),
  until: day(),
  by: choice(['day', 'model', 'source', 'workspace'])
} satisfies Record<string, OptionSpec>

export type OptionName = keyof typeof OPTIONS

/** What an option holds once parsed: true for a flag, the checked value, every value given. */
export type OptionValue<K extends OptionName> = (typeof OPTIONS)[K] extends { kind: 'flag' }
  ? boolean
  : (typeof OPTIONS)[K] extends { kind: 'values' }
    ? string[]
    : (typeof OPTIONS)[K] extends { parse: (text: string, name: string) => infer T }
      ? T
      : never

/** The options every command takes besides its own. */
export const GLOBAL_OPTIONS = ['data-dir', 'help', 'version'] as const satisfies readonly OptionName[]

/** `a, b or c`. */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1) ?? ''}`
}
