import { existsSync, symlinkSync } from 'node:fs'
import { resolve } from 'node:path'
import { RetraceError, type Recovery } from '../../shared/contract'
import type { RecoveryReport } from '../journal/rewind/recover'
import { clearUnreadableIntent, describeUnreadableIntent, unreadableIntents } from '../journal/rewind/unreadable-intents'
import type { Runtime } from '../runtime/runtime'
import type { CliCall } from './call'
import type { Output } from './commands'
import { formatTime } from './format'

/**
 * Before any command: what start-up recovery just did, on stderr (a command's own output stays
 * clean for scripts). Rewinds it could not finish, or that another process is applying, are
 * said too: rewinds in their workspaces are refused until they are done.
 */
export async function reportStartupRecovery(report: RecoveryReport, call: CliCall, io: Output): Promise<void> {
  if (report.rolledBack.length > 0) {
    const recovered = new Set(report.rolledBack)
    const items = (await call('rewind.recoveries', { unseenOnly: false })).items.filter((item) => recovered.has(item.rewindId))
    for (const item of items) io.err(describeRecovery(item))
  }
  for (const { root, kept } of report.kept) {
    for (const copy of kept) io.err(`retrace: a rewind in ${root.toString()} had set ${copy.path.toString()} aside, and something wrote to it meanwhile: that is kept as ${copy.keptAs.toString()}${copy.saved ? ' (and saved in Retrace)' : ''}.`)
  }
  for (const failed of report.failed) {
    io.err(`retrace: a rewind interrupted in ${failed.root.toString()} could not be finished yet: ${failed.reason}. Nothing more is rewound there until it is; Retrace tries again at every start.`)
  }
  for (const file of report.unreadable) io.err(`retrace: the intent log ${file} cannot be read; Retrace leaves it (and the files it names) alone. \`retrace recovery\` says what it is and clears it.`)
}

/** A recovered rewind in words, with each file left as found and how to get either version. */
export function describeRecovery(item: Recovery): string {
  const what = item.targetTurn !== null ? `back to before turn ${item.targetTurn}` : item.undoOf ? 'undoing an earlier rewind' : ''
  const of = item.sessionTitle ? ` of "${item.sessionTitle}"` : ''
  const lines = [`retrace: a rewind of files${what ? ` ${what}` : ''}${of} (${item.rewindId}) was interrupted; it was rolled back ${formatTime(item.recoveredAt)}.`]
  if (item.conflicts.length === 0) {
    lines.push('  Every file it had changed is as it was before it.')
    return lines.join('\n')
  }
  lines.push(`  Every file it had changed is as it was before it, except ${item.conflicts.length} changed since, left as you left ${item.conflicts.length === 1 ? 'it' : 'them'}:`)
  for (const conflict of item.conflicts) {
    const now = conflict.found === null ? 'deleted since' : conflict.saved ? 'your version is on disk (and saved in Retrace)' : 'your version is on disk'
    const before = conflict.before ? `; the version from before the rewind: retrace recovery ${item.rewindId} --file ${quote(conflict.path)} --out FILE` : '; nothing was there before the rewind'
    lines.push(`    ${conflict.path}: ${now}${before}`)
  }
  return lines.join('\n')
}

/**
 * `retrace recovery [--json]`: every rewind start-up recovery finished, newest first; then each
 * intent log that cannot be read, said and cleared (unreadable-intents.ts), so later commands stop
 * warning about it. With --json those sentences go to stderr, leaving the list parseable.
 */
export async function recoveryListCommand(call: CliCall, options: { json: boolean; io: Output; dataDir: string }): Promise<void> {
  const { items } = await call('rewind.recoveries', { unseenOnly: false })
  const cleared = unreadableIntents(options.dataDir).map((intent) => describeUnreadableIntent(intent, clearUnreadableIntent(options.dataDir, intent.file)))
  if (options.json) {
    options.io.out(JSON.stringify(items, null, 2))
    for (const sentence of cleared) options.io.err(`retrace: ${sentence}`)
    return
  }
  const listed = items.length === 0 ? (cleared.length === 0 ? ['No rewind has been interrupted.'] : []) : [items.map((item) => `${describeRecovery(item).replace(/^retrace: /, '')}\n  workspace: ${item.workspacePath}`).join('\n\n')]
  options.io.out([...listed, ...cleared].join('\n\n'))
}

/**
 * `retrace recovery <rewind-id> --file PATH --out FILE [--found]`: write a file's version from
 * before the interrupted rewind (or, with --found, the one recovery found and saved) to a new
 * file. Never over an existing one.
 */
export async function recoveryVersionCommand(runtime: Runtime, call: CliCall, options: { rewindId: string; file: string; out: string | undefined; found: boolean; io: Output }): Promise<void> {
  if (!options.out) throw new RetraceError('VALIDATION', 'Missing --out FILE: where to write that version (a new file).')
  const item = (await call('rewind.recoveries', { unseenOnly: false })).items.find((recovery) => recovery.rewindId === options.rewindId || recovery.rewindId.startsWith(options.rewindId))
  if (!item) throw new RetraceError('NOT_FOUND', `No interrupted rewind ${options.rewindId}. \`retrace recovery\` lists them.`)
  const conflict = item.conflicts.find((candidate) => candidate.path === options.file)
  if (!conflict) throw new RetraceError('NOT_FOUND', `Recovery of ${item.rewindId} left no file ${options.file} as found; it put every other file back as it was before the rewind.`)
  const version = options.found ? (conflict.saved && conflict.found && 'hash' in conflict.found ? conflict.found : null) : conflict.before
  if (!version) throw new RetraceError('NOT_FOUND', options.found ? `Retrace has no saved copy of what recovery found at ${options.file}.` : `Nothing was at ${options.file} before the rewind.`)
  const out = resolve(options.out)
  if (existsSync(out)) throw new RetraceError('CONFLICT', `${out} exists; Retrace writes only a new file. Choose another --out.`)
  if (version.kind === 'symlink') symlinkSync(runtime.journal.blobs.read(version.hash), out)
  else await runtime.journal.blobs.writeTo(version.hash, out, version.mode & 0o777)
  options.io.out(`Wrote ${options.found ? 'the version recovery found' : 'the version from before the rewind'} of ${options.file} to ${out}${version.kind === 'symlink' ? ' (a symbolic link)' : ''}.`)
}

const quote = (path: string) => (/^[\w./@+-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`)
