import { create } from 'zustand'

/** Playback speeds offered, as multiples of the normal pace. */
export const SPEEDS = [0.5, 1, 2, 4, 8] as const
export type Speed = (typeof SPEEDS)[number]

export interface ReplayState {
  /** The session being replayed; null when no replay is on. */
  sessionId: string | null
  /** How many messages of the transcript (from its start) are shown. */
  revealed: number
  playing: boolean
  speed: Speed
  /** Stop after each tool call is shown, so the reader can look at what the agent asked to run. */
  pauseAtTools: boolean
  /** A turn to jump to once its messages are loaded (the end of that turn is shown). */
  seekTurn: number | null
  /** A position the scrubber was moved to, shown once the messages up to it are loaded. */
  seekCount: number | null

  start: (sessionId: string) => void
  stop: () => void
  play: () => void
  pause: () => void
  reveal: (count: number) => void
  setSpeed: (speed: Speed) => void
  setPauseAtTools: (pause: boolean) => void
  seekToTurn: (turn: number | null) => void
  /** Move to a position (a count of messages shown), pausing the replay. */
  scrubTo: (count: number) => void
}

/**
 * A replay of one session: the transcript shown message by message from its start, as it
 * happened, with the files of the turn being played beside it. UI state only: the messages
 * come from the transcript query the list already uses.
 */
export const useReplayStore = create<ReplayState>()((set) => ({
  sessionId: null,
  revealed: 0,
  playing: false,
  speed: 1,
  pauseAtTools: false,
  seekTurn: null,
  seekCount: null,

  start: (sessionId) => set({ sessionId, revealed: 0, playing: false, seekTurn: null, seekCount: null }),
  stop: () => set({ sessionId: null, revealed: 0, playing: false, seekTurn: null, seekCount: null }),
  play: () => set({ playing: true }),
  pause: () => set({ playing: false }),
  reveal: (count) => set({ revealed: Math.max(0, count) }),
  setSpeed: (speed) => set({ speed }),
  setPauseAtTools: (pauseAtTools) => set({ pauseAtTools }),
  seekToTurn: (seekTurn) => set({ seekTurn, seekCount: null, playing: false }),
  scrubTo: (count) => set({ seekCount: Math.max(0, count), seekTurn: null, playing: false })
}))

/** The count of messages revealed for `sessionId`'s transcript, or null when it is not being replayed. */
export function useReplayReveal(sessionId: string): number | null {
  return useReplayStore((state) => (state.sessionId === sessionId ? state.revealed : null))
}
