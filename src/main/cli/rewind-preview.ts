import type { MethodOutput } from '../../shared/contract'
import type { Output } from './commands'
import { table } from './format'

export type Plan = MethodOutput<'rewind.plan'>
type PlanItem = Plan['items'][number]
export type RewindResult = MethodOutput<'rewind.apply'>

const octal = (mode: number) => mode.toString(8).padStart(3, '0')
const kindName = (kind: PlanItem['currentKind']) => (kind === 'symlink' ? 'link' : kind === 'directory' ? 'folder' : (kind ?? ''))

/** "file", "link", "file → link": what is there now and what the rewind leaves. */
function kindColumn(item: PlanItem): string {
  if (item.action === 'delete' || item.targetKind === null) return kindName(item.currentKind)
  if (item.currentKind === null || item.currentKind === item.targetKind) return kindName(item.targetKind)
  return `${kindName(item.currentKind)} → ${kindName(item.targetKind)}`
}

/** "644", "644 → 755", "→ 755": permission bits now and after (files only). */
function modeColumn(item: PlanItem): string {
  const { currentMode: now, targetMode: after } = item
  if (item.action === 'delete' || after === null) return now === null ? '' : octal(now)
  if (now === null) return `→ ${octal(after)}`
  return now === after ? octal(after) : `${octal(now)} → ${octal(after)}`
}

function noteColumn(item: PlanItem): string {
  if (item.refused) return item.refused
  const notes = [
    item.linkTarget !== null ? `→ ${item.linkTarget}` : '',
    item.needsConfirmation ? `needs confirmation: ${item.needsConfirmation}` : '',
    item.conflict ? `conflict: ${item.conflict}` : ''
  ]
  return notes.filter(Boolean).join('; ')
}

/** The rows a preview shows: every path that would change, and every path refused, whatever it would have done. */
export function shownItems(plan: Plan): PlanItem[] {
  return plan.items.filter((item) => item.action !== 'none' || item.refused)
}

/** Whether applying the plan would write anything: some row is neither refused nor already right. */
export const writesAnything = (plan: Plan): boolean => plan.items.some((item) => item.action !== 'none' && !item.refused)

/**
 * The preview: where, then every path that would change or is refused, with its kind, mode,
 * link target and why. "Every file already matches" only when that is so: a plan whose every
 * change is refused says that nothing will be written, and why for each file.
 */
export function printPlan(plan: Plan, io: Output): void {
  io.out(`Workspace: ${plan.root}`)
  const shown = shownItems(plan)
  if (shown.length === 0) return io.out('Nothing to do: every file already matches that checkpoint.')
  io.out(table(['action', 'kind', 'path', 'mode', 'note'], shown.map((item) => [item.refused ? 'refused' : item.action, kindColumn(item), item.path, modeColumn(item), noteColumn(item)])))
  if (!writesAnything(plan)) {
    const one = shown.length === 1
    io.out(`Nothing will be written: ${one ? 'the file above is' : `all ${shown.length} files above are`} refused, for the reason${one ? '' : 's'} given.`)
  }
}

/** The paths this preview asks the user to confirm (files that run code or grant access, from a foreign history). */
export function needingConfirmation(plan: Plan): PlanItem[] {
  return plan.items.filter((item) => item.needsConfirmation && !item.refused && item.action !== 'none')
}

/** Say which files are left alone without --allow-sensitive, or that the flag confirms them. */
export function printConfirmationNote(plan: Plan, allowSensitive: boolean, io: Output): void {
  const items = needingConfirmation(plan)
  if (items.length === 0) return
  const one = items.length === 1
  const files = `${items.length} file${one ? ' that runs code or grants access' : 's that run code or grant access'}`
  const names = items.map((item) => item.path).join(', ')
  io.out(
    allowSensitive
      ? `--allow-sensitive: ${files} will be written, from a history this computer did not record: ${names}.`
      : `${files} ${one ? 'comes' : 'come'} from a history this computer did not record; ${one ? 'it is' : 'they are'} left alone unless you pass --allow-sensitive: ${names}.`
  )
}

/** After an apply: the counts, each file refused with its reason, kept copies, and how to undo. */
export function printResult(result: RewindResult, io: Output): void {
  io.out(`Rewind ${result.rewindId}: ${result.changed.length} changed, ${result.skipped.length} skipped, ${result.refused.length} refused.`)
  for (const refused of result.refused) io.out(`  refused ${refused.path}: ${refused.reason}`)
  for (const kept of result.changed.filter((c) => c.keptAs)) io.out(`  kept your version of ${kept.path} as ${kept.keptAs ?? ''}`)
  for (const kept of result.keptDuring ?? []) io.out(`  ${kept.path} was written to while the rewind ran: that version is kept as ${kept.keptAs}${kept.hash ? ' (and saved in Retrace)' : ''}`)
  io.out(`Undo with: retrace undo ${result.rewindId}`)
}
