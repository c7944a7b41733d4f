import { useId, useMemo } from 'react'
import type { Message } from '../../../../shared/contract'
import { useReplayStore, SPEEDS, type Speed } from './replay-store'
import { currentTurn, scrubLabel, turnEnds } from './replay-timing'
import { ReplayFiles } from './ReplayFiles'
import { useReplayClock } from './use-replay-clock'

interface TranscriptSource {
  messages: readonly Message[]
  total: number
  hasNextPage: boolean
  isFetchingNextPage: boolean
  fetchNextPage: () => unknown
}

/**
 * The replay controls over the transcript: play / pause, one step, speed, pause at tool calls,
 * jump to a turn's checkpoint, a scrubber over every message, and where the replay is; beside them the files of the turn
 * being played. The transcript below shows only what has been played so far.
 */
export function ReplayBar({ sessionId, turnCount, source }: { sessionId: string; turnCount: number; source: TranscriptSource }) {
  useReplayClock(source)
  const { revealed, playing, speed, pauseAtTools, seekTurn, seekCount } = useReplayStore()
  const { play, pause, reveal, setSpeed, setPauseAtTools, seekToTurn, scrubTo, stop } = useReplayStore.getState()
  const { messages, total, hasNextPage } = source
  const atEnd = revealed >= total && !hasNextPage
  const turn = currentTurn(messages, revealed)
  const ticksId = useId()
  const ticks = useMemo(() => turnEnds(messages), [messages])
  const step = () => {
    pause()
    if (revealed < messages.length) reveal(revealed + 1)
  }

  return (
    <div className="replay" data-testid="replay" data-revealed={revealed} data-playing={playing}>
      <div className="replay-bar" role="toolbar" aria-label="Replay">
        <button type="button" className="button small primary" data-testid="replay-play" onClick={playing ? pause : atEnd ? () => { reveal(0); play() } : play}>
          {playing ? 'Pause' : atEnd ? 'Play again' : revealed === 0 ? 'Play' : 'Resume'}
        </button>
        <button type="button" className="button small" data-testid="replay-step" onClick={step} disabled={atEnd || revealed >= messages.length} title="Show the next message">
          Step
        </button>
        <label className="replay-field">
          Speed
          <select data-testid="replay-speed" value={speed} onChange={(event) => setSpeed(Number(event.target.value) as Speed)}>
            {SPEEDS.map((option) => (
              <option key={option} value={option}>
                {option}×
              </option>
            ))}
          </select>
        </label>
        <label className="replay-field">
          <input type="checkbox" data-testid="replay-pause-at-tools" checked={pauseAtTools} onChange={(event) => setPauseAtTools(event.target.checked)} />
          Pause at tool calls
        </label>
        <label className="replay-field">
          Jump to
          <select data-testid="replay-jump" value="" onChange={(event) => seekToTurn(Number(event.target.value))} disabled={turnCount === 0}>
            <option value="" disabled>
              {seekTurn !== null ? `turn ${seekTurn}…` : 'a checkpoint'}
            </option>
            {Array.from({ length: turnCount }, (_, index) => index + 1).map((option) => (
              <option key={option} value={option}>
                end of turn {option}
              </option>
            ))}
          </select>
        </label>
        <input
          type="range"
          className="replay-scrubber"
          data-testid="replay-scrubber"
          min={0}
          max={Math.max(total, 0)}
          step={1}
          value={Math.min(seekCount ?? revealed, total)}
          list={ticksId}
          aria-label="Replay position"
          aria-valuetext={scrubLabel(messages, seekCount ?? revealed, total)}
          title="Drag, or use the arrow keys (Page Up / Page Down for ten, Home / End), to move through the session"
          disabled={total === 0}
          onChange={(event) => scrubTo(Number(event.target.value))}
        />
        {/* Tick marks where each turn ends (the loaded ones). */}
        <datalist id={ticksId}>
          {ticks.map((count) => (
            <option key={count} value={count} />
          ))}
        </datalist>
        <span className="replay-position muted" data-testid="replay-position" role="status">
          {revealed === 0 ? 'Not started' : `Turn ${turn} · message ${Math.min(revealed, total)} of ${total}`}
          {atEnd && revealed > 0 ? ' · end' : ''}
        </span>
        <button type="button" className="button small" data-testid="replay-exit" onClick={stop}>
          Exit replay
        </button>
      </div>
      <ReplayFiles sessionId={sessionId} turn={turn} />
    </div>
  )
}
