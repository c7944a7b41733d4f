// The face of replay: what the rest of the app may import from it.
export { ReplayBar } from './ReplayBar'
// The replay's store: the transcript reveals messages by it, an opened export starts one.
export { useReplayReveal, useReplayStore } from './replay-store'
