import type { HistorySession } from './history-blocks'

/** prompt_toolkit's stamp: `str(datetime.now())`, local time, microseconds left out when zero. */
const STAMP = /^# (\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?\s*$/
/** How far a run's last prompt may come after the next run's header time, cut to the second. */
const HEADER_PRECISION_MS = 1000

export interface InputEntry {
  /** Epoch milliseconds of the stamp before it; undefined when it had none Retrace can read. */
  time: number | undefined
  text: string
}

/**
 * `.aider.input.history`, as prompt_toolkit's `FileHistory` writes it (`store_string`: for each
 * accepted input `\n# <datetime.now()>\n`, then each of its lines as `+<line>\n`) and reads it
 * (`load_history_strings`: consecutive `+` lines are one entry; any other line ends it). Aider
 * gives it every input typed at its prompt (FileHistory of the PromptSession; a repeat of the
 * entry before is not stored), plus `--message` and `/run` it adds itself. Pure.
 */
export function readInputHistory(text: string): InputEntry[] {
  const entries: InputEntry[] = []
  let stamp: number | undefined
  let lines: string[] | null = null
  const end = () => {
    if (lines) entries.push({ time: stamp, text: lines.join('\n') })
    lines = null
  }
  for (const raw of text.split('\n')) {
    if (raw.startsWith('+')) {
      lines = [...(lines ?? []), raw.slice(1)]
      continue
    }
    end()
    const match = STAMP.exec(raw)
    if (match) stamp = localTime(match)
    else if (raw.trim() !== '') stamp = undefined
  }
  end()
  return entries
}

/**
 * The exact time of each prompt of each run (run index → block index → epoch ms), where its
 * input history entry is found without doubt: the run has a header, its entry was stored between
 * the header's second and the next run's (plus that second), its text is the prompt's, and no
 * other prompt of the run and no other entry of that span has the same text, nor does any other
 * run claim the entry. Anything else (a repeated prompt, a `{`…`}` input Aider stores line by
 * line, two Aider processes typing the same text) keeps the run's time.
 */
export function promptTimes(runs: HistorySession[], starts: (number | undefined)[], entries: InputEntry[]): Map<number, Map<number, number>> {
  const claims = new Map<InputEntry, { run: number; block: number }[]>()
  runs.forEach((run, index) => {
    const start = starts[index]
    if (run.startedAt === null || start === undefined) return
    const next = starts.slice(index + 1).find((time) => time !== undefined && time >= start)
    const span = entries.filter((entry) => entry.time !== undefined && entry.time >= start && (next === undefined || entry.time < next + HEADER_PRECISION_MS))
    const prompts = run.blocks.map((block, at) => ({ block, at })).filter(({ block }) => block.kind === 'user')
    for (const { block, at } of prompts) {
      const text = sameText(block.lines.join('\n'))
      if (prompts.filter((other) => sameText(other.block.lines.join('\n')) === text).length !== 1) continue
      const found = span.filter((entry) => sameText(entry.text) === text)
      if (found.length !== 1 || !found[0]) continue
      claims.set(found[0], [...(claims.get(found[0]) ?? []), { run: index, block: at }])
    }
  })
  const times = new Map<number, Map<number, number>>()
  for (const [entry, claimants] of claims) {
    const [only] = claimants
    if (claimants.length !== 1 || !only || entry.time === undefined) continue
    times.set(only.run, (times.get(only.run) ?? new Map<number, number>()).set(only.block, entry.time))
  }
  return times
}

/**
 * A prompt as both files keep it: the chat history splits it with Python's `splitlines` and
 * strips the end of the whole, the input history keeps it as typed.
 */
function sameText(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex -- Python's line boundaries include \x1c–\x1e
    .split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/)
    .map((line) => line.trimEnd())
    .join('\n')
    .trimEnd()
}

function localTime(match: RegExpExecArray): number | undefined {
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  const micro = match[7] ?? '0'
  const ms = Math.floor(Number(micro.padEnd(6, '0')) / 1000)
  const time = new Date(year, month - 1, day, hour, minute, second, ms).getTime()
  return Number.isFinite(time) ? time : undefined
}
