import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from '../usage-error'
import { GLOBAL_OPTIONS, OPTIONS, orList, type OptionName } from './options'
import type { CommandSpec } from './spec'

export interface ParsedCommand {
  args: Record<string, string | undefined>
  values: Partial<Record<OptionName, unknown>>
}

type ParseOptions = NonNullable<ParseArgsConfig['options']>

function parseConfig(names: readonly OptionName[]): ParseOptions {
  const config: ParseOptions = {}
  for (const name of names) {
    const spec = OPTIONS[name]
    const short = 'short' in spec && spec.short ? { short: spec.short } : {}
    config[name] = spec.kind === 'flag' ? { type: 'boolean', ...short } : { type: 'string', multiple: spec.kind === 'values', ...short }
  }
  return config
}

/** The command's name: the first word that is not an option or an option's value. */
export function commandWord(argv: readonly string[]): string | undefined {
  const { positionals } = parseArgs({ args: [...argv], allowPositionals: true, strict: false, options: parseConfig(Object.keys(OPTIONS) as OptionName[]) })
  return positionals[0]
}

/**
 * `argv` read against `spec`: every option one the command takes, with a value where it needs one
 * (checked by its parser), the arguments it needs and no more, each fixed word one it knows.
 * Anything else is a UsageError whose message says what to type instead.
 */
export function parseCommand(spec: CommandSpec, argv: readonly string[]): ParsedCommand {
  const accepted = [...GLOBAL_OPTIONS, ...spec.options]
  const lenient = spec.lenient?.(argv) ?? false
  const { values, positionals, tokens } = parseArgs({ args: [...argv], allowPositionals: true, strict: false, tokens: true, options: parseConfig(Object.keys(OPTIONS) as OptionName[]) })
  const parsed: ParsedCommand = { args: {}, values: {} }
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    const name = token.name as OptionName
    const spec = OPTIONS[name] as (typeof OPTIONS)[OptionName] | undefined
    if (!accepted.includes(name) || spec === undefined) {
      if (lenient) continue
      throw new UsageError(unknownOption(token.rawName, commandOf(positionals), accepted))
    }
    if (spec.kind === 'flag' && token.inlineValue) throw new UsageError(`${token.rawName} takes no value: give it alone, not "${token.rawName}=${token.value ?? ''}".`)
    // `--workspace --json` means a forgotten value, not a folder named "--json" (`--file=-x` names one).
    const forgotten = token.value === undefined || (!token.inlineValue && token.value.startsWith('-') && token.value !== '-')
    if (spec.kind !== 'flag' && forgotten) throw new UsageError(`${token.rawName} needs a value: ${token.rawName.startsWith('--') ? token.rawName : `--${name}`} ${spec.placeholder}.`)
  }
  for (const name of accepted) {
    const raw = (values as Record<string, unknown>)[name]
    if (raw === undefined) continue
    const option = OPTIONS[name]
    parsed.values[name] = option.kind === 'value' && typeof raw === 'string' ? (option.parse as (text: string, name: string) => unknown)(raw, name) : raw
  }
  const words = positionals.slice(1)
  for (const [index, arg] of spec.args.entries()) {
    const value = arg.rest ? words.slice(index).join(' ').trim() || undefined : words[index]
    if (lenient) {
      if (value !== undefined) parsed.args[arg.name] = value
      continue
    }
    if (arg.choices && (value !== undefined || arg.required) && !arg.choices.includes(value ?? '')) {
      throw new UsageError(`Use ${orList(arg.choices.map((word) => `\`retrace ${spec.name} ${word}\``))}, not "retrace ${spec.name}${value === undefined ? '' : ` ${value}`}".`)
    }
    if (value === undefined) {
      if (arg.required) throw new UsageError(`Missing ${arg.name}: \`retrace ${spec.name} ${synopsisHead(spec)}\`. Run \`retrace help\` for usage.`)
      continue
    }
    parsed.args[arg.name] = value
  }
  const extra = spec.args.some((arg) => arg.rest) ? [] : words.slice(spec.args.length)
  if (extra.length > 0 && !lenient) throw new UsageError(`Unexpected "${extra.join(' ')}": \`retrace ${spec.name}\` takes ${spec.args.length === 0 ? 'no arguments' : `only ${spec.args.map((arg) => arg.name).join(' ')}`}. Run \`retrace help\` for usage.`)
  for (const name of spec.requires ?? []) {
    if (parsed.values[name] === undefined && !lenient) throw new UsageError(`Missing --${name} ${placeholderOf(name)}: \`retrace ${spec.name} ${synopsisHead(spec)}\`.`)
  }
  return parsed
}

function commandOf(positionals: readonly string[]): string {
  return positionals[0] ?? ''
}

function unknownOption(rawName: string, command: string, accepted: readonly OptionName[]): string {
  const own = accepted.filter((name) => !(GLOBAL_OPTIONS as readonly string[]).includes(name)).map((name) => `--${name}`)
  const takes = own.length === 0 ? 'takes no options of its own' : `takes ${orList(own)}`
  return `\`retrace ${command}\` has no option ${rawName}: it ${takes} (and --data-dir). Run \`retrace help\` for usage.`
}

function placeholderOf(name: OptionName): string {
  const spec = OPTIONS[name]
  return spec.kind === 'flag' ? '' : spec.placeholder
}

/** `<session-id> --turn N`: the arguments and required options, as the start of the usage line. */
function synopsisHead(spec: CommandSpec): string {
  const args = spec.args.filter((arg) => arg.required).map((arg) => arg.name)
  const required = (spec.requires ?? []).map((name) => `--${name} ${placeholderOf(name)}`.trim())
  return [...args, ...required, '…'].join(' ')
}
