import { createInterface } from 'node:readline/promises'
import { RetraceError } from '../../shared/contract'
import { SHELL_CAPTURE_HINT } from '../../shared/shell-capture'
import { coverageLabel, EMPTY_COVERAGE } from '../../shared/coverage'
import type { CliCall } from './call'
import type { Output } from './commands'
import { table } from './format'
import { TOO_MANY_CHANGES } from '../journal/line-diff/bounds.mts'
import { needingConfirmation, printConfirmationNote, printPlan, printResult, shownItems, writesAnything, type Plan, type RewindResult } from './rewind-preview'

export type ConflictChoice = 'skip' | 'overwrite' | 'keep-both'

const pathIdOf = (path: string) => Buffer.from(path, 'utf8').toString('base64')

/**
 * `retrace changes <session-id> [--turn N]`: the files each turn changed, the changes it made
 * that are not captured (with why), and how much of it a rewind can put back.
 */
export async function changesCommand(call: CliCall, options: { sessionId: string; turn: number | undefined; json: boolean; io: Output }): Promise<void> {
  const session = await call('sessions.get', { sessionId: options.sessionId })
  const turns = options.turn !== undefined ? [options.turn] : Array.from({ length: session.turnCount }, (_, i) => i + 1)
  const checkpoints = new Map(session.checkpoints.map((c) => [c.turn, c]))
  const result = []
  for (const turn of turns) {
    const checkpoint = checkpoints.get(turn)
    result.push({
      turn,
      changes: (await call('changes.ofTurn', { sessionId: session.id, turn })).items,
      uncapturedCommands: checkpoint?.uncapturedCommands ?? 0,
      notCaptured: checkpoint?.notCaptured ?? [],
      coverage: checkpoint?.coverage ?? { ...EMPTY_COVERAGE, agentKeepsNoContent: session.coverage.agentKeepsNoContent }
    })
  }
  if (options.json) return options.io.out(JSON.stringify(result, null, 2))
  const rows = result.flatMap(({ turn, changes }) =>
    changes.map((c) => [String(turn), c.op, c.from ? `${c.from.path} → ${c.path}` : c.path, c.tooManyChanges ? TOO_MANY_CHANGES : c.added === null ? 'binary' : `+${c.added} -${c.removed ?? 0}`, c.observed])
  )
  if (rows.length === 0) options.io.out(`No file changes recorded for "${session.title}".`)
  else options.io.out(table(['turn', 'op', 'path', 'lines', 'seen by'], rows))
  // Imported sessions: what a shell command changed is only known if a workspace scan saw it.
  const uncapturedTurns = result.filter((r) => r.uncapturedCommands > 0)
  for (const { turn, uncapturedCommands } of uncapturedTurns) {
    options.io.out(`Turn ${turn} ran ${uncapturedCommands} shell command${uncapturedCommands === 1 ? '' : 's'} whose file changes were not captured.`)
  }
  if (uncapturedTurns.length > 0) options.io.out(SHELL_CAPTURE_HINT)
  const notCaptured = result.flatMap((r) => r.notCaptured)
  if (notCaptured.length > 0) {
    options.io.out(`Not captured (${notCaptured.length}; a rewind leaves these as they are):`)
    options.io.out(table(['turn', 'tool', 'path', 'why'], notCaptured.map((c) => [String(c.turn), c.tool, c.path ?? '', c.reason])))
  }
  const coverage = options.turn !== undefined ? result[0]?.coverage : session.coverage
  if (coverage) options.io.out(`Rewind coverage${options.turn !== undefined ? ` of turn ${options.turn}` : ''}: ${coverageLabel(coverage)}.`)
}

/** `retrace diff <session-id> --turn N --file PATH`: what turn N did to one file. */
export async function diffCommand(call: CliCall, options: { sessionId: string; turn: number; file: string; io: Output }): Promise<void> {
  const diff = await call('files.diff', { sessionId: options.sessionId, pathId: pathIdOf(options.file), fromTurn: options.turn, toTurn: options.turn + 1 })
  const header = `--- ${options.file} (before turn ${options.turn})\n+++ ${options.file} (after turn ${options.turn})`
  if (diff.tooLarge) return options.io.out(`${header}\n(too large to diff: ${diff.before?.size ?? 0} → ${diff.after?.size ?? 0} bytes)`)
  if (diff.tooManyChanges) {
    const side = (version: { hash: string; size: number } | null) => (version ? `${version.hash.slice(0, 12)} (${version.size} B)` : 'absent')
    options.io.out(`${header}\n(${TOO_MANY_CHANGES}: ${side(diff.before)} → ${side(diff.after)}; below, the two versions, every old line removed, then every new line added)\n${diff.patch}`)
    return
  }
  if (diff.binary) return options.io.out(`${header}\nBinary file: ${diff.before?.hash.slice(0, 12) ?? 'absent'} (${diff.before?.size ?? 0} B) → ${diff.after?.hash.slice(0, 12) ?? 'absent'} (${diff.after?.size ?? 0} B)`)
  options.io.out(diff.patch ? `${header}\n${diff.patch}` : `${options.file} did not change in turn ${options.turn}.`)
}

/** Ask on a terminal; refuse (rather than assume yes) when nobody can answer. */
async function confirm(question: string, io: Output): Promise<boolean> {
  if (!process.stdin.isTTY) {
    io.err('retrace: Not a terminal, so nobody can confirm. Pass --yes to apply, or --dry-run to preview only.')
    return false
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout })
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim())
  } finally {
    rl.close()
  }
}

export interface ApplyFlags {
  dryRun: boolean
  yes: boolean
  onConflict: ConflictChoice | undefined
  /** Confirm the files the preview lists as running code or granting access (from a foreign history). */
  allowSensitive: boolean
  /** Files of the preview to leave as they are (`--leave PATH`, as the window's unticked rows). */
  leave: string[]
  json: boolean
  io: Output
}

/**
 * The preview, then (confirmed on a terminal, or `--yes`) the apply: what `rewind`, `undo` and
 * `restore` share. Exit code 2 when nobody confirmed.
 */
export async function previewAndApply(
  plan: Plan,
  flags: ApplyFlags,
  apply: (defaultChoice: ConflictChoice, confirmed: string[], excluded: string[]) => Promise<RewindResult>,
  question = 'Apply this rewind?'
): Promise<number> {
  const excluded = leftAlone(plan, flags.leave)
  const conflicts = plan.items.filter((item) => item.conflict && !item.refused).length
  if (flags.dryRun) {
    if (flags.json) flags.io.out(JSON.stringify({ dryRun: true, plan }, null, 2))
    else {
      printPlan(plan, flags.io)
      printConfirmationNote(plan, flags.allowSensitive, flags.io)
    }
    return 0
  }
  if (!flags.json) printPlan(plan, flags.io)
  if (!writesAnything(plan)) {
    // The preview above said so, naming each refused file; with --json, the refusals alone.
    const refused = shownItems(plan).map((item) => ({ path: item.path, pathId: item.pathId, reason: item.refused }))
    if (flags.json && refused.length > 0) flags.io.out(JSON.stringify({ nothingWritten: true, refused }, null, 2))
    return 0
  }
  const choice = flags.onConflict ?? 'skip'
  if (conflicts > 0 && !flags.onConflict && !flags.json) flags.io.out(`${conflicts} conflict(s) will be skipped (files changed since the agent wrote them). Use --on-conflict overwrite|keep-both to change that.`)
  if (!flags.json) printConfirmationNote(plan, flags.allowSensitive, flags.io)
  if (!flags.yes && !(await confirm(question, flags.io))) return 2
  // Exactly the files this preview named: one that appears only at the apply is refused.
  const confirmed = flags.allowSensitive ? needingConfirmation(plan).map((item) => item.pathId) : []
  const result = await apply(choice, confirmed, excluded)
  if (flags.json) flags.io.out(JSON.stringify(result, null, 2))
  else printResult(result, flags.io)
  return 0
}

/** `retrace rewind <session-id> --turn N`: files back to before turn N, after a preview. */
export async function rewindCommand(call: CliCall, options: { sessionId: string; turn: number } & ApplyFlags): Promise<number> {
  const plan = await call('rewind.plan', { sessionId: options.sessionId, turn: options.turn })
  return previewAndApply(plan, options, (defaultChoice, confirmed, excluded) => call('rewind.apply', { sessionId: options.sessionId, turn: options.turn, token: plan.token, defaultChoice, confirmed, excluded }))
}

/** `retrace undo <rewind-id>`: put back what a rewind replaced. */
export async function undoCommand(call: CliCall, options: { rewindId: string } & ApplyFlags): Promise<number> {
  const plan = await call('rewind.planUndo', { rewindId: options.rewindId })
  return previewAndApply(plan, options, (defaultChoice, confirmed, excluded) => call('rewind.undo', { rewindId: options.rewindId, token: plan.token, defaultChoice, confirmed, excluded }))
}

/** The preview's ids of the paths `--leave` names; a path the preview does not hold is refused before anything is written. */
function leftAlone(plan: Plan, paths: readonly string[]): string[] {
  return paths.map((path) => {
    const item = plan.items.find((candidate) => candidate.path === path)
    if (!item) throw new RetraceError('VALIDATION', `--leave ${path}: the preview has no such file (paths are relative to the workspace, as the preview lists them).`)
    return item.pathId
  })
}

/** `retrace fork <session-id> --turn N [--name NAME] [--with-files]`: a branch from before turn N. */
export async function forkCommand(call: CliCall, options: { sessionId: string; turn: number; name: string | undefined; withFiles: boolean; onConflict: ConflictChoice | undefined; allowSensitive: boolean; json: boolean; io: Output }): Promise<void> {
  // With files, what --allow-sensitive confirms is what a preview names now; its token makes sure the fork sees the same.
  const plan = options.withFiles && options.allowSensitive ? await call('rewind.plan', { sessionId: options.sessionId, turn: options.turn }) : null
  const result = await call('sessions.fork', {
    sessionId: options.sessionId,
    turn: options.turn,
    withFiles: options.withFiles,
    defaultChoice: options.onConflict ?? 'skip',
    ...(plan ? { token: plan.token, confirmed: needingConfirmation(plan).map((item) => item.pathId) } : {}),
    ...(options.name ? { title: options.name } : {})
  })
  if (options.json) return options.io.out(JSON.stringify(result, null, 2))
  options.io.out(`Branch ${result.sessionId} forked from before turn ${options.turn}.`)
  if (!result.rewind) return
  options.io.out(`Files rewound with it: ${result.rewind.changed.length} changed, ${result.rewind.skipped.length} skipped, ${result.rewind.refused.length} refused (undo with: retrace undo ${result.rewind.rewindId}).`)
  for (const refused of result.rewind.refused) options.io.out(`  refused ${refused.path}: ${refused.reason}`)
}

/** `retrace merge <branch-id> [--mode append|replace]`. */
export async function mergeCommand(call: CliCall, options: { branchId: string; mode: 'append' | 'replace'; json: boolean; io: Output }): Promise<void> {
  const { mode } = options
  const result = await call('sessions.merge', { branchId: options.branchId, mode })
  if (options.json) return options.io.out(JSON.stringify(result, null, 2))
  options.io.out(`Merged into ${result.parentId} (${mode}): ${result.messageCount} messages from position ${result.firstSeq}.`)
}

/** `retrace unmerge <branch-id>`: take a branch's latest merge back out of its parent. */
export async function unmergeCommand(call: CliCall, options: { branchId: string; json: boolean; io: Output }): Promise<void> {
  const result = await call('sessions.unmerge', { branchId: options.branchId })
  if (options.json) return options.io.out(JSON.stringify(result, null, 2))
  options.io.out(`Undid the merge into ${result.parentId}: ${result.removedMessages} messages removed, its transcript and usage as before.`)
}
