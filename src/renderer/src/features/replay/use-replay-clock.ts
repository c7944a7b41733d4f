import { useEffect } from 'react'
import type { Message } from '../../../../shared/contract'
import { useReplayStore } from './replay-store'
import { delayAfter, revealForScrub, revealThroughTurn } from './replay-timing'

/**
 * Drives a replay: while playing, reveals the next message after a pause that depends on the
 * one just shown and the speed; asks for the next page when the loaded messages run out; stops
 * at the end, or after a tool call when asked to. Also carries out "jump to turn" and a move of
 * the scrubber once the pages they need are loaded.
 */
export function useReplayClock({ messages, total, hasNextPage, isFetchingNextPage, fetchNextPage }: { messages: readonly Message[]; total: number; hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown }) {
  const playing = useReplayStore((state) => state.playing)
  const revealed = useReplayStore((state) => state.revealed)
  const speed = useReplayStore((state) => state.speed)
  const seekTurn = useReplayStore((state) => state.seekTurn)
  const seekCount = useReplayStore((state) => state.seekCount)

  // More messages are needed than are loaded: for the next step, or for a jump.
  const needMore =
    (playing && revealed >= messages.length - 1) ||
    (seekTurn !== null && revealThroughTurn(messages, seekTurn, hasNextPage) === null) ||
    (seekCount !== null && revealForScrub(messages.length, seekCount, hasNextPage) === null)
  useEffect(() => {
    if (needMore && hasNextPage && !isFetchingNextPage) void fetchNextPage()
  }, [needMore, hasNextPage, isFetchingNextPage, fetchNextPage])

  useEffect(() => {
    if (seekTurn === null) return
    const count = revealThroughTurn(messages, seekTurn, hasNextPage)
    if (count === null) return
    useReplayStore.setState({ revealed: count, seekTurn: null })
  }, [seekTurn, messages, hasNextPage])

  useEffect(() => {
    if (seekCount === null) return
    const count = revealForScrub(messages.length, seekCount, hasNextPage)
    if (count === null) return
    useReplayStore.setState({ revealed: count, seekCount: null })
  }, [seekCount, messages, hasNextPage])

  useEffect(() => {
    if (!playing) return
    if (revealed >= total && !hasNextPage) {
      useReplayStore.getState().pause()
      return
    }
    const next = messages[revealed]
    if (!next) return // waiting for its page
    const timer = setTimeout(() => {
      const state = useReplayStore.getState()
      state.reveal(revealed + 1)
      if (state.pauseAtTools && next.role === 'tool_call') state.pause()
    }, delayAfter(messages[revealed - 1] ?? null, speed))
    return () => clearTimeout(timer)
  }, [playing, revealed, messages, total, hasNextPage, speed])
}
