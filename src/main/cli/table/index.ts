import { AGENT_COMMANDS } from './agents'
import { BROWSE_COMMANDS } from './browse'
import { CARE_COMMANDS } from './care'
import { REWIND_COMMANDS } from './rewind'
import { SHARE_COMMANDS } from './share'
import type { CommandSpec } from './spec'

/**
 * Every `retrace` command: its arguments, the options it takes (table/options.ts checks their
 * values), its lines of `retrace help` and its handler. The parser (table/parse.ts) and the usage
 * (usage.ts) are made from this one table, so a command's usage errors are the same everywhere.
 */
export const COMMANDS: readonly CommandSpec[] = [...BROWSE_COMMANDS, ...REWIND_COMMANDS, ...AGENT_COMMANDS, ...SHARE_COMMANDS, ...CARE_COMMANDS]

export function commandNamed(name: string): CommandSpec | undefined {
  return COMMANDS.find((spec) => spec.name === name)
}
