import type { MethodOutput } from '../../../../shared/contract'

/** What a preview (rewind.plan, rewind.planUndo) says about each recorded path. */
export type RewindPlan = MethodOutput<'rewind.plan'>
export type PlanItem = RewindPlan['items'][number]
export type PlanAction = PlanItem['action']
export type RewindResult = MethodOutput<'rewind.apply'>
export type ConflictChoice = 'skip' | 'overwrite' | 'keep-both'
/** The user's choice per conflicting path, keyed by pathId. */
export type Choices = ReadonlyMap<string, ConflictChoice>
/** The pathIds of the files the user ticked among those that need confirmation. */
export type Confirmations = ReadonlySet<string>
/** The pathIds of the files the user unticked: the rewind leaves them as they are. */
export type Exclusions = ReadonlySet<string>

const NONE_CONFIRMED: Confirmations = new Set()
const NONE_EXCLUDED: Exclusions = new Set()

/** The order and wording of the groups a preview shows; `none` is collapsed apart. */
export const ACTION_GROUPS: { action: Exclude<PlanAction, 'none'>; title: string; explain: string }[] = [
  { action: 'restore', title: 'Restore earlier content', explain: 'Changed by the agent since that point: their earlier content is written back.' },
  { action: 'create', title: 'Re-create', explain: 'Existed at that point and are gone now: they are written back.' },
  { action: 'delete', title: 'Delete', explain: 'Did not exist at that point: the agent created them later, so they are removed.' },
  { action: 'mode', title: 'Restore permissions', explain: 'Same content, different permissions (for example the executable bit): the earlier mode is set back.' }
]

/**
 * An undo's groups say what they undo: the files the rewind replaced, created or deleted (the
 * agent's changes are not what an undo puts back).
 */
const UNDO_EXPLAIN: Record<Exclude<PlanAction, 'none'>, string> = {
  restore: 'Replaced by the rewind: what it replaced is written back.',
  create: 'Deleted by the rewind: they are written back as they were before it.',
  delete: 'Created by the rewind (they did not exist before it), so they are removed.',
  mode: 'The rewind changed their permissions only: the mode they had before it is set back.'
}

export const CHOICE_LABELS: Record<ConflictChoice, string> = {
  skip: 'Skip (leave it as it is)',
  overwrite: 'Overwrite',
  'keep-both': 'Keep both'
}

export interface PlanGroup {
  action: Exclude<PlanAction, 'none'>
  title: string
  explain: string
  items: PlanItem[]
}

export interface GroupedPlan {
  /** Paths the rewind would change, by action, in ACTION_GROUPS order; empty groups left out. */
  groups: PlanGroup[]
  /** Paths Retrace will not touch at all, with the reason (whatever their action). */
  refused: PlanItem[]
  /** Paths that already hold their earlier state. */
  unchanged: PlanItem[]
  /** Changing paths whose disk state is not what the agent left: each needs a choice. */
  conflicts: PlanItem[]
}

const byPath = (a: PlanItem, b: PlanItem) => a.path.localeCompare(b.path)

/** Split a plan into what the preview shows: groups by action, refused paths, unchanged paths. `undo`: the plan undoes a rewind (its groups are worded so). */
export function groupPlan(items: readonly PlanItem[], undo = false): GroupedPlan {
  const refused = items.filter((item) => item.refused !== null).sort(byPath)
  const usable = items.filter((item) => item.refused === null)
  const unchanged = usable.filter((item) => item.action === 'none').sort(byPath)
  const groups = ACTION_GROUPS.map((group) => ({ ...group, explain: undo ? UNDO_EXPLAIN[group.action] : group.explain, items: usable.filter((item) => item.action === group.action).sort(byPath) })).filter((group) => group.items.length > 0)
  const conflicts = groups.flatMap((group) => group.items).filter((item) => item.conflict !== null)
  return { groups, refused, unchanged, conflicts }
}

/** Whether the item can take a conflict choice (it changes something, is allowed, and conflicts). */
export function isConflict(item: PlanItem): boolean {
  return item.conflict !== null && item.refused === null && item.action !== 'none'
}

export function choiceFor(item: PlanItem, choices: Choices): ConflictChoice {
  return choices.get(item.pathId) ?? 'skip'
}

/**
 * The `choices` to send with an apply: one entry per conflict of *this* plan (a choice left
 * over from an earlier preview for a path that no longer conflicts is dropped), every one
 * explicit so what the user saw is what the server does.
 */
export function buildChoices(items: readonly PlanItem[], choices: Choices): { pathId: string; choice: ConflictChoice }[] {
  return items.filter(isConflict).map((item) => ({ pathId: item.pathId, choice: choiceFor(item, choices) }))
}

/** A file that runs code or grants access, from a history this computer did not record: written only if ticked. */
export function needsConsent(item: PlanItem): boolean {
  return item.needsConfirmation !== null && item.refused === null && item.action !== 'none'
}

/** The `confirmed` to send with an apply: the ticked files of *this* plan that need it (a tick left from an earlier preview is dropped). */
export function buildConfirmed(items: readonly PlanItem[], confirmed: Confirmations): string[] {
  return items.filter((item) => needsConsent(item) && confirmed.has(item.pathId)).map((item) => item.pathId)
}

/**
 * A file the user may untick to leave it out of the rewind: one it would change with no other
 * decision on it (a conflict has its own Skip; a file that needs confirmation, its own tick).
 */
export function isExcludable(item: PlanItem): boolean {
  return item.refused === null && item.action !== 'none' && !isConflict(item) && !needsConsent(item)
}

/** The `excluded` to send with an apply: the unticked files of *this* plan (an untick left from an earlier preview for a path that is now a conflict is dropped). */
export function buildExcluded(items: readonly PlanItem[], excluded: Exclusions): string[] {
  return items.filter((item) => isExcludable(item) && excluded.has(item.pathId)).map((item) => item.pathId)
}

/**
 * How many paths an apply with these choices would change (skipped conflicts, refused paths,
 * unticked files, and files left unticked that need confirmation do not count).
 */
export function countChanges(items: readonly PlanItem[], choices: Choices, confirmed: Confirmations = NONE_CONFIRMED, excluded: Exclusions = NONE_EXCLUDED): number {
  return items.filter(
    (item) =>
      item.refused === null &&
      item.action !== 'none' &&
      (!isConflict(item) || choiceFor(item, choices) !== 'skip') &&
      (!needsConsent(item) || confirmed.has(item.pathId)) &&
      !(isExcludable(item) && excluded.has(item.pathId))
  ).length
}

/** Permission bits as people read them in `ls -l`'s octal: 0o755 → "755" (setuid and the like as four digits). */
export function octalMode(mode: number): string {
  return mode.toString(8).padStart(3, '0')
}

/**
 * The mode change a file's entry shows: "644 → 755"; for a new file its mode unless it is the
 * ordinary 644; null when nothing about the mode is worth saying.
 */
export function modeChange(item: PlanItem): string | null {
  const { currentMode: now, targetMode: after } = item
  if (item.action === 'delete' || after === null) return null
  if (now === null) return after === 0o644 ? null : `mode ${octalMode(after)}`
  return now === after ? null : `mode ${octalMode(now)} → ${octalMode(after)}`
}

/** What kind of entry it is, when it is not simply a file: "link → ../README.md", "link → file". */
export function kindNote(item: PlanItem): string | null {
  if (item.targetKind === 'symlink') return `${item.currentKind === 'file' ? 'file → ' : ''}link → ${item.linkTarget ?? '?'}`
  if (item.currentKind === 'symlink') return item.targetKind === 'file' ? 'link → file' : 'link'
  return null
}

/** `dir/name.ext` → the name the server keeps a conflicting file under (or a numbered one if taken). */
export function keptName(path: string): string {
  return `${path}.retrace-kept`
}

/** One sentence: what happens to a conflicting path under a choice, before it happens. */
export function choiceEffect(item: PlanItem, choice: ConflictChoice): string {
  if (choice === 'skip') return 'Left exactly as it is now; the rest of the rewind still happens.'
  const saved = 'Its current content is saved first, so Undo brings it back.'
  if (item.action === 'create') return choice === 'overwrite' ? 'Written back.' : 'Written back (there is no current version to keep).'
  if (choice === 'keep-both') {
    return item.action === 'delete'
      ? `Your version is moved aside to ${keptName(item.path)} (or a numbered name if that is taken) instead of being deleted.`
      : `Your version is moved aside to ${keptName(item.path)} (or a numbered name if that is taken), then the earlier content is written.`
  }
  return item.action === 'delete' ? `Your version is deleted. ${saved}` : `Your version is replaced by the earlier content. ${saved}`
}

const units = ['B', 'KB', 'MB', 'GB', 'TB']

/** 1536 → "1.5 KB". */
export function formatBytes(bytes: number): string {
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`
}

/** "1.2 KB → 900 B", "absent → 2 KB": the size now and the size the rewind writes. */
export function sizeChange(item: PlanItem): string {
  const size = (bytes: number | null) => (bytes === null ? 'absent' : formatBytes(bytes))
  return `${size(item.currentSize)} → ${size(item.targetSize)}`
}

/** What one entry of a result did, in words. */
export function describeChange(change: RewindResult['changed'][number]): string {
  switch (change.action) {
    case 'keep':
      return change.keptAs ? `your version kept as ${change.keptAs}` : 'your version kept'
    case 'delete':
      return 'deleted'
    case 'mode':
      return 'permissions restored'
    case 'write':
      return 'written'
  }
}

/** The file names a keep-both choice produced, for the summary. */
export function keptCopies(result: RewindResult): { path: string; keptAs: string }[] {
  return result.changed.flatMap((change) => (change.keptAs ? [{ path: change.path, keptAs: change.keptAs }] : []))
}

/** How many distinct paths a result changed (a kept copy and the write to the same path count once). */
export function changedPathCount(result: RewindResult): number {
  return new Set(result.changed.map((change) => change.pathId)).size
}

/**
 * One row per changed path, its actions' notes joined ("your version kept as a.retrace-kept ·
 * written"), so the Changed list holds as many rows as the "N changed" count says.
 */
export function changedRows(result: RewindResult): { key: string; path: string; note: string }[] {
  const rows = new Map<string, { key: string; path: string; notes: string[] }>()
  for (const change of result.changed) {
    const row = rows.get(change.pathId) ?? { key: change.pathId, path: change.path, notes: [] }
    row.notes.push(describeChange(change))
    rows.set(change.pathId, row)
  }
  return [...rows.values()].map((row) => ({ key: row.key, path: row.path, note: row.notes.join(' · ') }))
}

/** What a preview row shows of the disk: if any of it differs between two previews, the file changed. */
const seen = (item: PlanItem) => JSON.stringify([item.action, item.conflict, item.refused, item.currentKind, item.currentSize, item.currentMode, item.linkTarget, item.needsConfirmation])

/**
 * The paths whose row differs between the preview on screen and a fresh one (sorted): what a
 * refreshed preview names. Empty when only something a row does not show changed (a same-size
 * edit the token caught): the caller then says "files changed" without names.
 */
export function changedPaths(before: readonly PlanItem[], after: readonly PlanItem[]): string[] {
  const old = new Map(before.map((item) => [item.pathId, seen(item)]))
  const now = new Map(after.map((item) => [item.pathId, item]))
  const changed = after.filter((item) => old.get(item.pathId) !== seen(item)).map((item) => item.path)
  const gone = before.filter((item) => !now.has(item.pathId)).map((item) => item.path)
  return [...changed, ...gone].sort((a, b) => a.localeCompare(b))
}
