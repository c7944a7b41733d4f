import type { Runtime } from '../../runtime/runtime'
import type { Output } from '../commands'
import type { OptionName, OptionValue } from './options'

/** A positional argument: its name in the usage (`<session-id>`, `FILE`), and the words it may be, if fixed. */
export interface ArgSpec {
  name: string
  /** Missing is a usage error (exit 2). */
  required?: boolean
  /** The words it may be (`install|uninstall|status`); anything else is a usage error. */
  choices?: readonly string[]
  /** Takes every remaining word, joined by spaces (a query, a path typed with spaces). */
  rest?: boolean
}

/** One line of `retrace help`: what follows `retrace NAME`, and what it does. */
export interface UsageForm {
  /** The synopsis after the command's name; by default its arguments and options, as the table has them. */
  synopsis?: string
  about: string
  /** The group of `retrace help` it is listed in (groups are separated by a blank line). */
  group: number
}

/** What a command's handler gets: its arguments and options, parsed and checked by the table. */
export interface CommandInput<O extends OptionName> {
  /** The positional arguments by name (a `rest` argument joined); absent ones undefined. */
  args: Record<string, string | undefined>
  values: { [K in O]?: OptionValue<K> }
  dataDir: string
  env: NodeJS.ProcessEnv
  io: Output
  /** The store of the data folder, after start-up recovery (`follow`: live, with the background work, as `serve`). */
  open: (options?: { follow?: boolean; quiet?: boolean }) => Promise<Runtime>
  /** A session argument as Retrace's id: also the agent's own id, or the start of either (session-ref.ts). */
  session: (runtime: Runtime, ref: string) => string
  /** The current folder as the workspace nobody named, refused where it is Retrace's own (default-folder.ts). */
  defaultWorkspace: (example: string) => string
  /** Ctrl-C (SIGINT, SIGTERM, SIGHUP), or the test's stand-in. */
  interrupt: () => AbortSignal
  /** An agent's stdin that bin/retrace.js read already. */
  hookInput: { payload: unknown } | undefined
}

export interface CommandSpec<O extends OptionName = OptionName> {
  name: string
  args: readonly ArgSpec[]
  /** The options it takes besides --data-dir and --help. */
  options: readonly O[]
  /** Options it cannot run without. */
  requires?: readonly O[]
  usage: readonly UsageForm[]
  /**
   * Parse leniently when this says so: an agent's hook (`checkpoint --hook`) must exit 0 whatever
   * it is given, so its own command reports what is wrong in the hook log instead.
   */
  lenient?: (argv: readonly string[]) => boolean
  run(input: CommandInput<O>): Promise<number>
}

/** A command of the table, its options' types checked against what its handler reads. */
export function command<const O extends OptionName>(spec: CommandSpec<O>): CommandSpec {
  return spec
}
