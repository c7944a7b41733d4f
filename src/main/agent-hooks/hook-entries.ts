import type { AgentTarget } from './agent-targets'
import { valueAt, type JsonPath } from './jsonc-edit'
import { isRetraceHookCommand } from './retrace-command'

/** One of Retrace's checkpoint hooks found in an agent's settings. */
export interface FoundHook {
  command: string
  /** Where the command string is (replaced in place when Retrace's path changed). */
  commandPath: JsonPath
  /** What uninstall removes: the whole entry, or only this command when the user put others beside it. */
  removePath: JsonPath
}

/** The entry install appends under `hooks.<event>`. */
export function hookElement(target: AgentTarget, phase: 'begin' | 'end', command: string): unknown {
  const { shape } = target
  if (shape.kind === 'groups') return { hooks: [{ type: 'command', command, ...(shape.extra?.(phase) ?? {}) }] }
  return { ...(shape.extra ?? {}), [shape.field]: command }
}

/** Retrace's hooks under `hooks.<event>` of a parsed settings file, in file order. */
export function findRetraceHooks(document: unknown, target: AgentTarget, event: string): FoundHook[] {
  const entries = valueAt(document, ['hooks', event])
  if (!Array.isArray(entries)) return []
  const found: FoundHook[] = []
  const { shape } = target
  entries.forEach((entry, index) => {
    if (shape.kind === 'flat') {
      const command = valueAt(entry, [shape.field])
      if (isRetraceHookCommand(command)) found.push({ command: command as string, commandPath: ['hooks', event, index, shape.field], removePath: ['hooks', event, index] })
      return
    }
    const hooks = valueAt(entry, ['hooks'])
    if (!Array.isArray(hooks)) return
    const ours = hooks.map((hook) => isRetraceHookCommand(valueAt(hook, ['command'])))
    const whole = ours.every(Boolean)
    hooks.forEach((hook, inner) => {
      if (!ours[inner]) return
      const path: JsonPath = ['hooks', event, index, 'hooks', inner]
      found.push({ command: valueAt(hook, ['command']) as string, commandPath: [...path, 'command'], removePath: whole ? ['hooks', event, index] : path })
    })
  })
  return found
}
