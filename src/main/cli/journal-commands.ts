import { createInterface } from 'node:readline/promises'
import { RetraceError, type MethodOutput } from '../../shared/contract'
import type { CliCall } from './call'
import type { Output } from './commands'
import { table } from './format'

export type ConflictChoice = 'skip' | 'overwrite' | 'keep-both'

const pathIdOf = (path: string) => Buffer.from(path, 'utf8').toString('base64')

/** `retrace changes <session-id> [--turn N]`: the files each turn changed. */
export async function changesCommand(call: CliCall, options: { sessionId: string; turn: number | undefined; json: boolean; io: Output }): Promise<void> {
  const session = await call('sessions.get', { sessionId: options.sessionId })
  const turns = options.turn !== undefined ? [options.turn] : Array.from({ length: session.turnCount }, (_, i) => i + 1)
  const uncaptured = new Map(session.checkpoints.map((c) => [c.turn, c.uncapturedCommands]))
  const result = []
  for (const turn of turns) {
    result.push({ turn, changes: (await call('changes.ofTurn', { sessionId: session.id, turn })).items, uncapturedCommands: uncaptured.get(turn) ?? 0 })
  }
  if (options.json) return options.io.out(JSON.stringify(result, null, 2))
  const rows = result.flatMap(({ turn, changes }) =>
    changes.map((c) => [String(turn), c.op, c.from ? `${c.from.path} → ${c.path}` : c.path, c.added === null ? 'binary' : `+${c.added} -${c.removed ?? 0}`, c.observed])
  )
  if (rows.length === 0) options.io.out(`No file changes recorded for "${session.title}".`)
  else options.io.out(table(['turn', 'op', 'path', 'lines', 'seen by'], rows))
  // Imported sessions: what a shell command changed is only known if a workspace scan saw it.
  for (const { turn, uncapturedCommands } of result.filter((r) => r.uncapturedCommands > 0)) {
    options.io.out(`Turn ${turn} ran ${uncapturedCommands} shell command${uncapturedCommands === 1 ? '' : 's'} whose file changes were not captured.`)
  }
}

/** `retrace diff <session-id> --turn N --file PATH`: what turn N did to one file. */
export async function diffCommand(call: CliCall, options: { sessionId: string; turn: number; file: string; io: Output }): Promise<void> {
  const diff = await call('files.diff', { sessionId: options.sessionId, pathId: pathIdOf(options.file), fromTurn: options.turn, toTurn: options.turn + 1 })
  const header = `--- ${options.file} (before turn ${options.turn})\n+++ ${options.file} (after turn ${options.turn})`
  if (diff.tooLarge) return options.io.out(`${header}\n(too large to diff: ${diff.before?.size ?? 0} → ${diff.after?.size ?? 0} bytes)`)
  if (diff.binary) return options.io.out(`${header}\nBinary file: ${diff.before?.hash.slice(0, 12) ?? 'absent'} (${diff.before?.size ?? 0} B) → ${diff.after?.hash.slice(0, 12) ?? 'absent'} (${diff.after?.size ?? 0} B)`)
  options.io.out(diff.patch ? `${header}\n${diff.patch}` : `${options.file} did not change in turn ${options.turn}.`)
}

type Plan = MethodOutput<'rewind.plan'>

function printPlan(plan: Plan, io: Output): void {
  const changing = plan.items.filter((item) => item.action !== 'none')
  if (changing.length === 0) return io.out('Nothing to do: every file already matches that checkpoint.')
  io.out(table(['action', 'path', 'note'], changing.map((item) => [item.refused ? 'refused' : item.action, item.path, item.refused ?? (item.conflict ? `conflict: ${item.conflict}` : '')])))
}

/** Ask on a terminal; refuse (rather than assume yes) when nobody can answer. */
async function confirm(question: string, io: Output): Promise<boolean> {
  if (!process.stdin.isTTY) {
    io.err('retrace: not a terminal, so nobody can confirm. Pass --yes to apply, or --dry-run to preview only.')
    return false
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout })
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim())
  } finally {
    rl.close()
  }
}

interface ApplyFlags {
  dryRun: boolean
  yes: boolean
  onConflict: ConflictChoice | undefined
  json: boolean
  io: Output
}

async function previewAndApply(plan: Plan, flags: ApplyFlags, apply: (defaultChoice: ConflictChoice) => Promise<MethodOutput<'rewind.apply'>>): Promise<number> {
  const conflicts = plan.items.filter((item) => item.conflict && !item.refused).length
  if (flags.dryRun) {
    if (flags.json) flags.io.out(JSON.stringify({ dryRun: true, plan }, null, 2))
    else printPlan(plan, flags.io)
    return 0
  }
  if (!flags.json) printPlan(plan, flags.io)
  if (plan.items.every((item) => item.action === 'none')) return 0
  const choice = flags.onConflict ?? 'skip'
  if (conflicts > 0 && !flags.onConflict && !flags.json) flags.io.out(`${conflicts} conflict(s) will be skipped (files changed since the agent wrote them). Use --on-conflict overwrite|keep-both to change that.`)
  if (!flags.yes && !(await confirm('Apply this rewind?', flags.io))) return flags.yes ? 0 : 2
  const result = await apply(choice)
  if (flags.json) {
    flags.io.out(JSON.stringify(result, null, 2))
  } else {
    flags.io.out(`Rewind ${result.rewindId}: ${result.changed.length} changed, ${result.skipped.length} skipped, ${result.refused.length} refused.`)
    for (const kept of result.changed.filter((c) => c.keptAs)) flags.io.out(`  kept your version of ${kept.path} as ${kept.keptAs ?? ''}`)
    flags.io.out(`Undo with: retrace undo ${result.rewindId}`)
  }
  return 0
}

/** `retrace rewind <session-id> --turn N`: files back to before turn N, after a preview. */
export async function rewindCommand(call: CliCall, options: { sessionId: string; turn: number } & ApplyFlags): Promise<number> {
  const plan = await call('rewind.plan', { sessionId: options.sessionId, turn: options.turn })
  return previewAndApply(plan, options, (defaultChoice) => call('rewind.apply', { sessionId: options.sessionId, turn: options.turn, token: plan.token, defaultChoice }))
}

/** `retrace undo <rewind-id>`: put back what a rewind replaced. */
export async function undoCommand(call: CliCall, options: { rewindId: string } & ApplyFlags): Promise<number> {
  const plan = await call('rewind.planUndo', { rewindId: options.rewindId })
  return previewAndApply(plan, options, (defaultChoice) => call('rewind.undo', { rewindId: options.rewindId, token: plan.token, defaultChoice }))
}

export function parseTurn(value: string | undefined, required: boolean): number | undefined {
  if (value === undefined) {
    if (required) throw new RetraceError('VALIDATION', 'Missing --turn N (turns are numbered from 1).')
    return undefined
  }
  const turn = Number(value)
  if (!Number.isInteger(turn) || turn < 1) throw new RetraceError('VALIDATION', `--turn must be a whole number from 1, not "${value}".`)
  return turn
}

export function parseChoice(value: string | undefined): ConflictChoice | undefined {
  if (value === undefined) return undefined
  if (value === 'skip' || value === 'overwrite' || value === 'keep-both') return value
  throw new RetraceError('VALIDATION', `--on-conflict must be skip, overwrite or keep-both, not "${value}".`)
}

/** `retrace fork <session-id> --turn N [--name NAME] [--with-files]`: a branch from before turn N. */
export async function forkCommand(call: CliCall, options: { sessionId: string; turn: number; name: string | undefined; withFiles: boolean; onConflict: ConflictChoice | undefined; json: boolean; io: Output }): Promise<void> {
  const result = await call('sessions.fork', {
    sessionId: options.sessionId,
    turn: options.turn,
    withFiles: options.withFiles,
    defaultChoice: options.onConflict ?? 'skip',
    ...(options.name ? { title: options.name } : {})
  })
  if (options.json) return options.io.out(JSON.stringify(result, null, 2))
  options.io.out(`Branch ${result.sessionId} forked from before turn ${options.turn}.`)
  if (result.rewind) options.io.out(`Files rewound with it: ${result.rewind.changed.length} changed, ${result.rewind.skipped.length} skipped (undo with: retrace undo ${result.rewind.rewindId}).`)
}

/** `retrace merge <branch-id> [--mode append|replace]`. */
export async function mergeCommand(call: CliCall, options: { branchId: string; mode: string | undefined; json: boolean; io: Output }): Promise<void> {
  const mode = options.mode ?? 'append'
  if (mode !== 'append' && mode !== 'replace') throw new RetraceError('VALIDATION', `--mode must be append or replace, not "${mode}".`)
  const result = await call('sessions.merge', { branchId: options.branchId, mode })
  if (options.json) return options.io.out(JSON.stringify(result, null, 2))
  options.io.out(`Merged into ${result.parentId} (${mode}): ${result.messageCount} messages from position ${result.firstSeq}.`)
}
