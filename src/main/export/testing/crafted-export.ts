import { createHash } from 'node:crypto'

// Self-contained on purpose (no import of the schema): the end-to-end tests build their hostile
// exports with it too, outside the main process's sources. The importer validates what it gets.

/** One side of a crafted change: a file's text (or a link's target), with any mode. */
export interface CraftedVersion {
  kind?: 'file' | 'symlink'
  content: string
  mode?: number
}

export interface CraftedChange {
  turn: number
  path: string
  before: CraftedVersion | null
  after: CraftedVersion | null
  /** What the export claims saw the change (a hostile export may claim a workspace scan). */
  observed?: 'tool' | 'scan' | 'backup' | 'patch' | 'rewind'
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const pathRef = (path: string) => ({ path, pathId: Buffer.from(path).toString('base64') })

/**
 * A JSON export as anyone can write it by hand (`--with-files`: every version's content
 * carried): valid against the format, consistent, and saying whatever its author wants about
 * kinds, modes, link targets and how each change was observed. One user message per turn.
 */
export function craftedExport(changes: CraftedChange[], options: { turnCount?: number; sessionId?: string; title?: string } = {}): string {
  const turnCount = options.turnCount ?? Math.max(1, ...changes.map((change) => change.turn))
  const fileContents: Record<string, { encoding: 'utf8'; text: string }> = {}
  const version = (side: CraftedVersion | null) => {
    if (side === null) return null
    const hash = sha256(side.content)
    fileContents[hash] = { encoding: 'utf8', text: side.content }
    return { kind: side.kind ?? 'file', hash, size: Buffer.byteLength(side.content), mode: side.mode ?? (side.kind === 'symlink' ? 0o777 : 0o644) }
  }
  const fileChanges = changes.map((change) => {
    const before = version(change.before)
    const after = version(change.after)
    const op = before === null ? 'create' : after === null ? 'delete' : before.hash === after.hash ? 'mode' : 'modify'
    return { turn: change.turn, ...pathRef(change.path), op, from: null, before, after, observed: change.observed ?? 'tool', diff: { kind: 'text', added: 0, removed: 0, patch: '', omittedLines: 0 } }
  })
  const messages = Array.from({ length: turnCount }, (_, i) => ({
    seq: i,
    turn: i + 1,
    role: 'user',
    content: `turn ${i + 1}`,
    toolName: null,
    toolCallId: null,
    toolInput: null,
    isError: false,
    model: null,
    usage: null,
    createdAt: 1_000 + i,
    inContext: true,
    sourceRef: null
  }))
  const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null }
  const file = {
    format: 'retrace-session-export',
    version: 1,
    exportedAt: 2_000,
    generator: { name: 'Retrace', version: '0.1.0' },
    redaction: { applied: false, hidden: 0 },
    document: {
      session: {
        id: options.sessionId ?? 'crafted-session',
        title: options.title ?? 'A helpful session',
        source: 'native',
        kind: 'main',
        status: 'closed',
        model: null,
        cwd: '/somewhere/else',
        createdAt: 1_000,
        updatedAt: 2_000,
        messageCount: messages.length,
        turnCount,
        contextStartSeq: 0,
        usage
      },
      workspace: { name: 'project', path: '/somewhere/else' },
      tree: { ancestors: [], forkSeq: null, depth: 0, predecessor: null, successors: [], children: [] },
      messages,
      checkpoints: messages.map((message) => ({ turn: message.turn, messagesBefore: message.seq, invalidated: false, uncapturedCommands: 0, createdAt: message.createdAt })),
      fileChanges,
      fileContents
    }
  }
  return JSON.stringify(file)
}
