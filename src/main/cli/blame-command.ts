import type { Blame, BlameOrigin } from '../../shared/contract'
import type { CliCall } from './call'
import type { Output } from './commands'
import { formatTime } from './format'
import { workspaceFile } from './workspace-file'

/**
 * `retrace blame FILE [--workspace PATH] [--json]`: who last wrote each line, like `git blame`:
 * the session (its id's first 8 characters), the turn, when, the line number and the text.
 * FILE is taken relative to the current folder when it lies inside the workspace, else
 * relative to the workspace. The workspace, without --workspace: the deepest one Retrace knows
 * that holds FILE, else the current folder.
 */
export async function blameCommand(call: CliCall, options: { file: string; workspace: string | undefined; json: boolean; io: Output }): Promise<void> {
  const { workspaceId, path } = await workspaceFile(call, options.file, options.workspace)
  const result = await call('files.blame', { workspaceId, path })
  if (options.json) return options.io.out(JSON.stringify(result, null, 2))
  options.io.out(blameText(result))
}

/** Columns: who (8), turn, date, line number, text; then a legend of the sessions named. */
export function blameText(blame: Blame): string {
  const width = String(blame.lines.length).length
  const out: string[] = []
  for (const run of blame.runs) {
    const origin = blame.origins[run.origin]
    const who = origin ? whoColumn(origin) : '?'
    for (let i = 0; i < run.count; i += 1) {
      const line = run.start + i
      out.push(`${who} ${String(line).padStart(width)}) ${blame.lines[line - 1] ?? ''}`)
    }
  }
  const notes = [
    blame.disk === 'changed' ? '"changed since": the file on disk differs from its last journaled version (no agent turn wrote those lines).' : '',
    blame.disk === 'absent' ? `No file is there now: these are its last recorded lines${deletion(blame)}.` : ''
  ].filter(Boolean)
  return [...out, '', ...legend(blame), ...notes].join('\n').trimEnd()
}

function whoColumn(origin: BlameOrigin): string {
  const date = formatTime(origin.createdAt).padEnd(16)
  switch (origin.kind) {
    case 'turn':
      return `${(origin.sessionId ?? '').slice(0, 8)} ${`t${origin.turn ?? '?'}`.padEnd(5)} ${date}`
    case 'rewind':
      return `${'rewind'.padEnd(8)} ${''.padEnd(5)} ${date}`
    case 'outside':
      return `${'outside'.padEnd(8)} ${''.padEnd(5)} ${date}`
    case 'earlier':
      return `${'earlier'.padEnd(8)} ${''.padEnd(5)} ${date}`
    case 'disk':
      return `${'changed'.padEnd(8)} ${'since'.padEnd(5)} ${''.padEnd(16)}`
  }
}

/** One line per session turn named above: its agent and prompt. */
function legend(blame: Blame): string[] {
  const used = new Set(blame.runs.map((run) => run.origin))
  const lines: string[] = []
  blame.origins.forEach((origin, index) => {
    if (!used.has(index)) return
    if (origin.kind === 'turn') lines.push(`${(origin.sessionId ?? '').slice(0, 8)} t${origin.turn ?? '?'}: ${origin.source ?? '?'} · “${origin.sessionTitle ?? ''}” · ${oneLine(origin.prompt)}`)
    if (origin.kind === 'outside') lines.push(`outside: changed outside any agent turn; first seen by turn ${origin.turn ?? '?'} of “${origin.sessionTitle ?? ''}”`)
    if (origin.kind === 'earlier') lines.push(`earlier: already in the file when Retrace first saw it (turn ${origin.turn ?? '?'} of “${origin.sessionTitle ?? ''}”)`)
    if (origin.kind === 'rewind') lines.push('rewind: written by a Retrace rewind, from no recorded version')
  })
  return [...new Set(lines)]
}

function deletion(blame: Blame): string {
  const origin = blame.deletedBy === null ? undefined : blame.origins[blame.deletedBy]
  return origin?.kind === 'turn' ? `, deleted in turn ${origin.turn ?? '?'} of ${(origin.sessionId ?? '').slice(0, 8)}` : ''
}

function oneLine(text: string | null): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim()
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat || '(no prompt)'
}
