import type { Checkpoint, MethodOutput } from '../../../../shared/contract'

type RewindSummary = MethodOutput<'rewind.list'>['items'][number]

/**
 * A turn's checkpoint as the transcript shows it: `current` is where the workspace's files are
 * now (the latest turn not rewound past), `rewound` a turn whose changes a rewind of this
 * session undid (and nobody undid the rewind), `invalidated` a checkpoint whose recorded file
 * states no longer apply.
 */
export type TurnState = 'current' | 'rewound' | 'invalidated'

/**
 * Whether a rewind's effect still holds: applied, or undone by an undo that was itself undone
 * (an undo is a rewind too, so the chain can be any length).
 */
export function rewindInEffect(rewind: RewindSummary, rewinds: readonly RewindSummary[], seen = new Set<string>()): boolean {
  if (rewind.status === 'applied') return true
  if (rewind.status !== 'undone' || seen.has(rewind.id)) return false
  seen.add(rewind.id)
  const undos = rewinds.filter((other) => other.undoOf === rewind.id && (other.status === 'applied' || other.status === 'undone'))
  const undo = undos.at(-1)
  return undo !== undefined && !rewindInEffect(undo, rewinds, seen)
}

/**
 * Every turn's state, 1…turnCount. A rewind to before turn N covers the turns from N on that
 * existed when it ran (`startedAt`: the checkpoint's time, else the turn's first message);
 * turns an agent added afterwards are not rewound past.
 */
export function turnStates(input: {
  turnCount: number
  checkpoints: readonly Checkpoint[]
  rewinds: readonly RewindSummary[]
  /** When a turn without a checkpoint started, if known. */
  startedAt?: (turn: number) => number | null
}): Map<number, TurnState> {
  const checkpoints = new Map(input.checkpoints.map((checkpoint) => [checkpoint.turn, checkpoint]))
  const active = input.rewinds.filter((rewind) => rewind.undoOf === null && rewind.targetTurn !== null && rewindInEffect(rewind, input.rewinds))
  const states = new Map<number, TurnState>()
  let current: number | null = null
  for (let turn = 1; turn <= input.turnCount; turn++) {
    const checkpoint = checkpoints.get(turn)
    const started = checkpoint?.createdAt ?? input.startedAt?.(turn) ?? null
    const rewound = active.some((rewind) => turn >= (rewind.targetTurn ?? Infinity) && (started === null || started <= rewind.createdAt))
    if (rewound) states.set(turn, 'rewound')
    else if (checkpoint?.invalidated) states.set(turn, 'invalidated')
    else current = turn
  }
  if (current !== null) states.set(current, 'current')
  return states
}
