import type { SessionRow } from './store-db'
import type { TranscriptLine } from './transcripts'

/** One y-agent session with what was read of its two transcripts. */
export interface SessionInput {
  session: SessionRow
  /** Null when the session has no display transcript (an ephemeral session, or a lost file). */
  display: TranscriptLine[] | null
  context: TranscriptLine[] | null
  /** Lines of its transcripts that could not be read. */
  problems: string[]
}
