// The face of transcript: what the rest of the app may import from it.
export { TranscriptPane } from './TranscriptPane'
