import type { AgentTarget } from './agent-targets'
import type { ConfigPlan } from './config-plan'
import { findRetraceHooks, hookElement } from './hook-entries'
import { parseJsonc, removeAt, setAt, valueAt, type JsonPath } from './jsonc-edit'
import { hookCommand, type RetraceProgram } from './retrace-command'

const PHASES = ['begin', 'end'] as const

/**
 * Add Retrace's begin and end hooks to an agent's hooks file. A hook already there with the same
 * command is left alone (installing twice changes nothing); one with another Retrace command (an
 * older install, a moved package, or the README's hand-written one) gets this command in place.
 */
export function planHooksInstall(plan: ConfigPlan, target: AgentTarget, path: string, program: RetraceProgram): void {
  let { text } = plan.text(path)
  const { file } = plan.text(path)
  let document = parseJsonc(text.trim() === '' ? '{}' : text, file)
  for (const [key, value] of Object.entries(target.fileKeys ?? {})) {
    if (valueAt(document, [key]) !== undefined) continue
    text = setAt(text, [key], value).text
    plan.edit(path, text, `"${key}": ${JSON.stringify(value)} set`, [[key]])
    document = parseJsonc(text, file)
  }
  for (const phase of PHASES) {
    const event = target.events[phase]
    const command = hookCommand(program, phase, target.agent)
    const found = findRetraceHooks(document, target, event)
    if (found.some((hook) => hook.command === command)) continue
    const first = found[0]
    if (first) {
      text = setAt(text, first.commandPath, command).text
      plan.edit(path, text, `${event} hook updated to this Retrace`)
    } else {
      const added = setAt(text, ['hooks', event, -1], hookElement(target, phase, command))
      text = added.text
      plan.edit(path, text, `${event} hook added (checkpoint ${phase})`, added.created)
    }
    document = parseJsonc(text, file)
  }
}

/**
 * Remove Retrace's hooks from an agent's hooks file, and what install created for them (the
 * `hooks` object or an event's list, a `version` key, the file itself) once nothing else is in
 * it: the file ends as it was before install. Without a record of the install (another data
 * folder, a hand-written hook), lists and objects left empty go, and the file stays.
 */
export function planHooksUninstall(plan: ConfigPlan, target: AgentTarget, path: string): void {
  const { file, exists } = plan.text(path)
  let { text } = plan.text(path)
  if (!exists || text.trim() === '') return
  let document = parseJsonc(text, file)
  const known = plan.known(path)
  const removable = (jsonPath: JsonPath) => (known ? plan.createdPath(path, jsonPath) : true)
  // Nothing of Retrace's here: the file stays exactly as it is.
  if (!PHASES.some((phase) => findRetraceHooks(document, target, target.events[phase]).length > 0)) return
  const gone: JsonPath[] = []
  for (const phase of PHASES) {
    const event = target.events[phase]
    const found = findRetraceHooks(document, target, event)
    if (found.length === 0) continue
    const paths = [...new Map(found.map((hook) => [JSON.stringify(hook.removePath), hook.removePath])).values()]
    // Last first: removing an entry moves the indices of those after it.
    for (const removePath of paths.reverse()) text = removeAt(text, removePath)
    plan.edit(path, text, `${event} hook removed`)
    document = parseJsonc(text, file)
    if (isEmpty(valueAt(document, ['hooks', event])) && removable(['hooks', event])) {
      text = removeAt(text, ['hooks', event])
      gone.push(['hooks', event])
      document = parseJsonc(text, file)
      plan.edit(path, text, `empty "${event}" list removed`)
    }
  }
  if (isEmpty(valueAt(document, ['hooks'])) && removable(['hooks'])) {
    text = removeAt(text, ['hooks'])
    gone.push(['hooks'])
    plan.edit(path, text, 'empty "hooks" removed')
    document = parseJsonc(text, file)
  }
  for (const key of Object.keys(target.fileKeys ?? {})) {
    const onlyThis = Object.keys(document as object).length === 1
    if (valueAt(document, ['hooks']) === undefined && (known ? plan.createdPath(path, [key]) : target.ownsHooksFile && onlyThis) && valueAt(document, [key]) !== undefined) {
      text = removeAt(text, [key])
      gone.push([key])
      plan.edit(path, text, `"${key}" removed`)
      document = parseJsonc(text, file)
    }
  }
  plan.uncreated(path, gone)
  if (isEmpty(document)) plan.nothingLeft(path, { owned: target.ownsHooksFile })
}

/** Whether each phase's hook is there, and with this Retrace's command. */
export function hookState(document: unknown, target: AgentTarget, program: RetraceProgram | null): Record<'begin' | 'end', 'current' | 'other' | null> {
  const state = { begin: null, end: null } as Record<'begin' | 'end', 'current' | 'other' | null>
  for (const phase of PHASES) {
    const found = findRetraceHooks(document, target, target.events[phase])
    if (found.length === 0) continue
    state[phase] = program && found.some((hook) => hook.command === hookCommand(program, phase, target.agent)) ? 'current' : 'other'
  }
  return state
}

function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0
  return value !== null && typeof value === 'object' && Object.keys(value).length === 0
}
