import type { AgentRewindRecord } from '../records'
import { BoundedMap } from './bounded-map'

/**
 * Finds where the user went back inside Claude Code. A session is a tree of lines (`uuid` →
 * `parentUuid`); going back (Esc Esc, `/rewind`, editing an earlier prompt) writes the new prompt
 * below the same message as the prompt it replaces, and a retry writes a new answer below the
 * same prompt. So a real fork is a message with two children that each start a prompt, or a
 * prompt with two answers of different API responses.
 *
 * Everything else with several children is how Claude Code records one line, and is not a fork:
 * a `progress` or hook line beside the tool result it accompanies and parallel tool results
 * (neither starts a prompt or answers one), one response split over several lines (the same
 * `message.id`), `system` lines, compaction boundaries (their parent is null; they name the
 * message they follow in `logicalParentUuid`), and sidechain lines (the caller leaves them out).
 * A compaction that replays earlier lines writes them with new uuids but the same parent and
 * timestamp as the originals: a child with its sibling's timestamp is a replay, not a fork.
 */
export class RewindTracker {
  /** Parent uid ('' for the session's start) → the latest child that starts a prompt or answer. */
  private readonly lines: BoundedMap<LineStart>
  /** Uids of prompts, so that an answer knows it answers one. */
  private readonly prompts: BoundedMap<true>

  constructor(saved?: SavedRewinds) {
    this.lines = new BoundedMap(LINE_LIMIT, saved?.lines)
    this.prompts = new BoundedMap(LINE_LIMIT, saved?.prompts.map((uid) => [uid, true] as const))
  }

  /**
   * A line's first message: a rewind record when it starts a line beside an earlier one. Lines
   * that start neither a prompt nor an answer are not looked at.
   */
  observe(line: ObservedLine, offset: number): AgentRewindRecord | null {
    const { uid, writtenParent } = line
    let start: LineStart
    if (line.kind === 'prompt') {
      this.prompts.set(uid, true)
      start = [uid, 'prompt', line.timestamp, null]
    } else {
      // Only an answer to a prompt can be retried; the other assistant lines continue a turn.
      if (writtenParent === null || !this.prompts.has(writtenParent)) return null
      start = [uid, 'answer', line.timestamp, line.messageId]
    }
    // Keyed by the parent as written: Claude Code gives the new prompt exactly the parent of the
    // one it replaces, however far back, whatever lines (progress, hooks) that parent stands for.
    const key = writtenParent ?? ''
    const earlier = this.lines.get(key)
    this.lines.set(key, start)
    if (!earlier || earlier[0] === uid || earlier[1] !== start[1]) return null
    if (start[1] === 'answer' && earlier[3] !== null && earlier[3] === start[3]) return null
    if (earlier[2] !== null && earlier[2] === start[2]) return null
    return { kind: 'agent-rewind', offset, atUid: line.parentUid, abandonedUid: earlier[0] }
  }

  toJSON(): SavedRewinds {
    return { lines: this.lines.entries(), prompts: this.prompts.entries().map(([uid]) => uid) }
  }
}

/** What the tracker needs of a line that opens a prompt or holds an assistant's answer. */
export interface ObservedLine {
  kind: 'prompt' | 'answer'
  uid: string
  /** The line's `parentUuid` as written. */
  writtenParent: string | null
  /** The message that parent stands for (lines that made no message stand for the one above them). */
  parentUid: string | null
  timestamp: string | null
  /** The API response an answer belongs to (`message.id`). */
  messageId: string | null
}

/** [uid, kind, timestamp, message id]. */
type LineStart = [string, 'prompt' | 'answer', string | null, string | null]

export interface SavedRewinds {
  lines: [string, LineStart][]
  prompts: string[]
}

/**
 * How many prompts (and the lines below them) are remembered: a rewind further back than this
 * many prompts is read as one line. Kept small because the parser's state is saved with every
 * committed chunk of lines.
 */
const LINE_LIMIT = 1000
