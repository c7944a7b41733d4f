import { createHash } from 'node:crypto'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { ZodError } from 'zod'
import { RetraceError } from '../../shared/contract'
import type { SessionWriter } from '../transcripts/session-writer'
import { countUnread, type ImportDeps, type ImportReport } from './import-deps'
import { ImportedSessions } from './imported-sessions'
import { sessionsOf, sessionUidsOf } from './imported-content'
import { KeptMessages } from './kept-messages'
import { refreshWarmups } from './sub-agent-parents'
import { SummaryTitles } from './summary-titles'
import type { HistoryFile } from './adapter'
import { applyHunks } from './apply-hunks'
import { openBackupFile } from './claude-code/backup-file'
import { isWithin } from './files'
import { TITLE_RANK, type FileImportState } from './import-state'
import type { CompactionRecord, FileBackupsRecord, FileEditRecord, MessageRecord, SessionMetaRecord, SourceRecord, UsageRecord } from './records'
import type { WorkspaceDictionary } from '../journal/deflate-dictionary'
import { isReadOnlyCommand } from './read-only-command'
import { applyStringEdits } from './string-edits'

const CLEAR_COMMAND = '<command-name>/clear</command-name>'
/** Backup file names are `<16 hex>@v<N>`; anything else is not read (it could name another file). */
const BACKUP_NAME = /^[0-9a-f]{16}@v\d{1,9}$/

/**
 * Turns the records of one foreign file into sessions, messages, checkpoints and journal
 * entries. `apply` runs inside the caller's transaction (one per chunk of lines, together with
 * the file's new offset), so an interrupted import leaves either a whole chunk or none of it.
 */
export class RecordWriter {
  /** Backup file name → blob hash, copied by `prepare` before the transaction (null: refused). */
  private readonly copiedBackups = new Map<string, string | null>()
  /** The line being skipped as a fork's copy of its parent (records of one line share its offset). */
  private copiedLineOffset = -1
  /** Turns whose checkpoint the source invalidated: marked once the turn is closed (`finish`). */
  private readonly invalidatedTurns: { uid: string; turn: number }[] = []
  private readonly sessions: ImportedSessions
  /** The file the records come from: the file, or an earlier segment of it (HistoryFile.segments). */
  private readingFrom: string
  private readonly summaries: SummaryTitles
  private readonly kept: KeptMessages

  constructor(
    private readonly deps: ImportDeps,
    /** `readOnly`: why the workspace is never rewound (a home or system folder): nothing is journaled there. */
    private readonly workspace: { id: number; path: string; readOnly?: string },
    private readonly file: HistoryFile,
    readonly state: FileImportState,
    private readonly report: ImportReport,
    /** Links agent id → tool call id recorded by the parent session's file (sub-agent files). */
    parentLinks: () => Record<string, string> = () => ({})
  ) {
    this.readingFrom = file.path
    this.sessions = new ImportedSessions(deps, workspace, file, state, report, parentLinks)
    this.summaries = new SummaryTitles(deps, workspace, file, state, report, (title) => this.titleOwn(title, 'summary'))
    this.kept = new KeptMessages(deps, state, () => sessionsOf(deps, { importState: state }))
  }

  /** The records applied next come from this file (an earlier segment of the file, or the file). */
  readFrom(path: string | undefined): void {
    this.readingFrom = path ?? this.file.path
  }

  /**
   * The part that needs awaiting: copy the agent's own file backups into the blob store so they
   * outlive its purge (Claude Code deletes them after 30 days). Read-only on the agent's side.
   */
  async prepare(records: SourceRecord[]): Promise<void> {
    const dir = this.file.backupDir
    if (!dir) return
    for (const record of records) {
      if (record.kind !== 'file-backups') continue
      for (const backup of record.files) {
        const name = backup.backupFileName
        if (!name || !BACKUP_NAME.test(name) || this.copiedBackups.has(name)) continue
        const opened = await openBackupFile(join(dir, name))
        if (opened === null) continue // purged: the transcript's own edit results still apply
        if ('refused' in opened) {
          // Refused once per name: the snapshots of later turns name it again.
          this.copiedBackups.set(name, null)
          this.skip(record.offset, opened.refused)
          continue
        }
        try {
          this.copiedBackups.set(name, (await this.deps.journal.blobs.putOpenFile(opened.handle, this.dictionary())).hash)
        } finally {
          await opened.handle.close()
        }
      }
    }
  }

  /** The workspace's deflate dictionary, for the backups it copies (see deflate-dictionary.ts). */
  private dictionary(): WorkspaceDictionary | null {
    return this.deps.journal.blobs.dictionaries.ofWorkspace(this.workspace.id)
  }

  /**
   * Apply one chunk's records in order. A file read again (FileImportState.reread) applies only
   * what its sessions do not hold already, a line at a time (kept-messages.ts).
   */
  applyAll(records: SourceRecord[]): void {
    let start = 0
    while (start < records.length) {
      if (!this.state.reread) {
        for (const record of records.slice(start)) this.apply(record)
        return
      }
      const offset = records[start]?.offset
      let end = start + 1
      while (end < records.length && records[end]?.offset === offset) end += 1
      for (const record of this.kept.newRecordsOfLine(records.slice(start, end), this.readingFrom)) this.apply(record)
      start = end
    }
  }

  apply(record: SourceRecord): void {
    try {
      this.applyRecord(record)
    } catch (error) {
      if (!(error instanceof ZodError) && !(error instanceof RetraceError)) throw error
      this.skip(record.offset, `not imported: ${error instanceof ZodError ? error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') : error.message}`)
    }
  }

  /**
   * End of what the file holds for now: close each session's open turn, so its last turn is a
   * checkpoint too (rewindable, and carrying its count of uncaptured shell commands). Lines
   * appended later to the same turn still join it. Then count shell commands on checkpoints.
   */
  finish(): void {
    // Messages kept while the file was read again were found there again: the window shows it.
    if (this.kept.takeChanged()) this.deps.recorder.announce(this.workspace.id, ...sessionUidsOf(this.state))
    this.sessions.flushProgress()
    for (const writer of this.sessions.openWriters()) writer.closeTurn()
    refreshWarmups(this.deps, [...this.sessions.openWriters()].map((writer) => writer.id))
    this.summaries.resolve()
    for (const { uid, turn } of this.invalidatedTurns.splice(0)) {
      const session = this.deps.store.sessions.get(uid)
      // As a rewind marks a checkpoint it cannot restore (RewindService.invalidate).
      if (session) this.deps.store.checkpoints.invalidate(session.rowId, turn)
    }
    for (const [uid, turns] of Object.entries(this.state.uncaptured)) {
      const session = this.deps.store.sessions.get(uid)
      for (const [turn, commands] of Object.entries(turns)) {
        if (!session || this.deps.store.checkpoints.addUncaptured(session.rowId, Number(turn), commands)) delete turns[turn]
      }
      if (Object.keys(turns).length === 0) delete this.state.uncaptured[uid]
    }
  }

  /** The import is all in: summaries naming other files' sessions are applied, or reported (summary-titles.ts). */
  settleSummaries(): void {
    this.summaries.settle()
  }

  /** Summaries of this file still wait for the session they name. */
  get summariesWaiting(): boolean {
    return this.summaries.waiting
  }

  get sessionRowId(): number | null {
    return this.state.sessionUid ? this.sessions.rowIdOf(this.state.sessionUid) : null
  }

  private applyRecord(record: SourceRecord): void {
    // A fork's copy of its parent's lines: the parent's edits and commands are not the fork's.
    if (record.offset === this.copiedLineOffset && (record.kind === 'file-edit' || record.kind === 'shell-command' || record.kind === 'sub-agent-link')) return
    switch (record.kind) {
      case 'session-meta':
        return this.applyMeta(record)
      case 'message':
        return this.applyMessage(record)
      case 'compaction':
        return this.applyCompaction(record)
      case 'sub-agent-link':
        // Progress lines repeat a running agent's link until its result names it once more.
        if (this.state.links[record.agentId] === record.toolCallId && (!record.description || this.state.linkTitles[record.agentId] === record.description)) return
        this.state.links[record.agentId] = record.toolCallId
        if (record.description) this.state.linkTitles[record.agentId] = record.description
        return this.sessions.linkSubAgent(record.agentId, record.toolCallId, record.description)
      case 'file-backups':
        return this.applyBackups(record)
      case 'file-edit':
        return this.applyEdit(record)
      case 'shell-command':
        // `ls`, `git status`, `grep`…: nothing a rewind would miss.
        return isReadOnlyCommand(record.command) ? undefined : this.countShellCommand()
      case 'change-not-captured':
        return this.notJournaled(record.offset, `file change not captured (${record.reason}): ${record.path ?? `${record.tool} call`}`)
      case 'skipped':
        return this.skip(record.offset, record.reason)
      case 'usage':
        return this.applyUsage(record)
      case 'unread':
        return countUnread(this.report, this.file.source, this.file.path, record)
      case 'note':
        return
      case 'agent-rewind':
        return this.sessions.splitRewoundLine(record)
    }
  }

  /** Usage reported after its message (Codex `token_count`): added to the latest assistant message. */
  private applyUsage(record: UsageRecord): void {
    if (!this.state.sessionUid) return
    const usage = record.usage
    this.sessions.writer(this.state.sessionUid).addLateUsage({
      inputTokens: usage.inputTokens ?? 0,
      outputTokens: usage.outputTokens ?? 0,
      cacheReadTokens: usage.cacheReadTokens ?? 0,
      cacheWriteTokens: usage.cacheWriteTokens ?? 0
    })
  }

  private applyMeta(record: SessionMetaRecord): void {
    if (record.cwd) this.state.cwd = record.cwd
    if (record.forkedFrom && !this.state.sessionUid) this.state.forkedFrom = record.forkedFrom
    if (record.parent && !this.state.sessionUid) this.sessions.hangBelow(record.parent)
    // A summary titles the session holding the message it names, often another file's.
    if (record.titleLeafUid && record.title) return this.summaries.add({ leafUid: record.titleLeafUid, title: record.title, offset: record.offset })
    // A sub-agent's file repeats its parent's session id and titles itself after its first prompt.
    if (this.file.role === 'sub-agent') return
    // A fork's first prompt is its parent's, copied: the branch is named by its own first prompt.
    if (record.titleOrigin === 'first-prompt' && (this.state.forkedFrom ?? this.file.forkedFrom)) return
    if (record.title && record.titleOrigin) this.titleOwn(record.title, record.titleOrigin)
  }

  /** Title this file's own session, unless it has a title of a higher rank (a user's own). */
  private titleOwn(title: string, origin: keyof typeof TITLE_RANK): void {
    const rank = TITLE_RANK[origin]
    if (rank < this.state.titleRank) return
    this.state.title = title
    this.state.titleRank = rank
    const session = this.state.sessionUid ? this.deps.store.sessions.get(this.state.sessionUid) : undefined
    if (session) this.deps.store.sessions.setTitle(session.rowId, title)
  }

  private applyMessage(record: MessageRecord): void {
    const clear = isClearCommand(record)
    const uid = this.sessions.sessionFor(record)
    // Claude Code writes a caveat line before `/clear`: the session exists by then.
    if (clear && !this.state.sawPrompt && !this.state.startedByClear) {
      this.state.startedByClear = true
      this.sessions.continueAfterClear()
    }
    if (record.uid && this.sessions.isForkCopy(record.uid)) {
      this.copiedLineOffset = record.offset
      return
    }
    if (record.role === 'user' && !clear) this.state.sawPrompt = true
    this.sessions.writer(uid).append({
      role: record.role,
      content: record.content,
      ...(record.toolName !== undefined ? { toolName: record.toolName } : {}),
      ...(record.toolCallId !== undefined ? { toolCallId: record.toolCallId } : {}),
      ...(record.toolInput !== undefined ? { toolInput: record.toolInput } : {}),
      ...(record.isError !== undefined ? { isError: record.isError } : {}),
      ...(record.model !== undefined ? { model: record.model } : {}),
      ...(record.usage !== undefined ? { usage: record.usage } : {}),
      ...(record.createdAt !== undefined ? { createdAt: record.createdAt } : {}),
      ...(record.attachments?.length ? { attachments: record.attachments.map((a) => ({ mediaType: a.mediaType, data: a.data, ...(a.name ? { name: a.name } : {}) })) } : {}),
      sourceRef: { file: this.readingFrom, offset: record.offset },
      ...(record.uid ? { sourceUid: record.uid } : {})
    })
    if (record.turnInvalidated && record.role === 'user') this.invalidatedTurns.push({ uid, turn: this.sessions.writer(uid).turn })
    this.report.messages += 1
    if (record.role === 'tool_call') this.report.toolCalls += 1
  }

  private applyCompaction(record: CompactionRecord): void {
    const uid = this.sessions.sessionFor(record)
    if (record.uid && this.sessions.isForkCopy(record.uid)) return
    // Where it was read, as for a message: a file read again finds it there (kept-messages.ts).
    this.sessions.writer(uid).compact(record.summary, { sourceRef: { file: this.readingFrom, offset: record.offset }, ...(record.createdAt !== undefined ? { createdAt: record.createdAt } : {}) })
    this.report.messages += 1
  }

  /** A snapshot replaces the turn's backups; a delta only adds files the snapshot lacked. */
  private applyBackups(record: FileBackupsRecord): void {
    if (this.workspace.readOnly) return
    if (record.mode === 'snapshot') this.state.backups = {}
    if (record.messageUid !== this.state.backupsMessageUid) {
      this.state.backupsMessageUid = record.messageUid
      this.state.editedThisTurn = []
    }
    for (const backup of record.files) {
      const path = this.relPath(backup.path)
      if (path === null || (record.mode === 'delta' && path in this.state.backups)) continue
      if (backup.backupFileName === null) this.state.backups[path] = null
      else {
        const hash = this.copiedBackups.get(backup.backupFileName)
        if (hash) this.state.backups[path] = hash
      }
    }
  }

  private applyEdit(record: FileEditRecord): void {
    const session = this.state.sessionUid
    if (!session) return this.notJournaled(record.offset, `file change before any message: ${record.path}`)
    // Never kept: a rewind there could write into the account's or the system's files.
    if (this.workspace.readOnly) return this.notJournaled(record.offset, `file change not journaled (the workspace is a home or system folder, never rewound): ${record.path}`)
    const path = this.relPath(record.path)
    if (path === null) return this.notJournaled(record.offset, `file change outside the workspace, not journaled: ${record.path}`)
    const writer = this.sessions.writer(session)
    if (writer.turn === 0) return this.notJournaled(record.offset, `file change before the first prompt: ${record.path}`)
    if (record.fromPath !== undefined) {
      const from = this.relPath(record.fromPath)
      const fromContent = from === null ? undefined : this.knownContent(from)
      if (from !== null && fromContent?.content) {
        this.journal(writer, from, fromContent.content, null, fromContent.observed)
      }
    }
    const known = record.before === undefined ? this.knownContent(path) : { content: toBuffer(record.before), observed: 'tool' as const }
    if (known === undefined) return this.notJournaled(record.offset, `file change not captured (its earlier content is unknown): ${record.path}`)
    let after: Buffer | null
    let observed: 'tool' | 'patch' | 'backup' = known.observed
    if (record.after !== undefined) {
      after = toBuffer(record.after)
    } else if (record.patch !== undefined && known.content !== null) {
      const patched = applyHunks(known.content.toString('utf8'), record.patch)
      if (patched === null) return this.notJournaled(record.offset, `file change not captured (the patch does not apply to the known content): ${record.path}`)
      after = Buffer.from(patched)
      if (observed === 'tool') observed = 'patch'
    } else if (record.edits !== undefined) {
      const edited = applyStringEdits(known.content === null ? '' : known.content.toString('utf8'), record.edits)
      if (edited === null) return this.notJournaled(record.offset, `file change not captured (the edit's old text is not once in the known content): ${record.path}`)
      after = Buffer.from(edited)
      if (observed === 'tool') observed = 'patch'
    } else {
      return this.notJournaled(record.offset, `file change not captured (no content after the edit): ${record.path}`)
    }
    this.journal(writer, path, known.content, after, observed)
  }

  private journal(writer: SessionWriter, path: string, before: Buffer | null, after: Buffer | null, observed: 'tool' | 'patch' | 'backup'): void {
    if (before !== null && after !== null && before.equals(after)) return
    writer.recordFileChange({ path, before, after, observed })
    this.state.lastContent[path] = after === null ? null : sha256(after)
    if (!this.state.editedThisTurn.includes(path)) this.state.editedThisTurn.push(path)
    this.report.fileChanges += 1
  }

  /**
   * What the file held before this edit. For the turn's first edit of a path, the agent's own
   * backup (taken from the disk just before) beats the content journaled last: a formatter or
   * the user may have changed the file between turns. Otherwise the last journaled content.
   */
  private knownContent(path: string): { content: Buffer | null; observed: 'tool' | 'backup' } | undefined {
    const blobs = this.deps.journal.blobs
    const backup = this.state.backups[path]
    const last = this.state.lastContent[path]
    if (backup !== undefined && (last === undefined || !this.state.editedThisTurn.includes(path))) {
      return { content: backup === null ? null : blobs.read(backup), observed: 'backup' }
    }
    if (last !== undefined) return { content: last === null ? null : blobs.read(last), observed: 'tool' }
    return undefined
  }

  private countShellCommand(): void {
    const uid = this.state.sessionUid
    if (!uid) return
    const turn = this.sessions.writer(uid).turn
    if (turn === 0) return
    const turns = (this.state.uncaptured[uid] ??= {})
    turns[turn] = (turns[turn] ?? 0) + 1
  }

  /** Workspace-relative form of a path an agent wrote (absolute, or relative to its cwd); null when outside. */
  private relPath(path: string): string | null {
    const base = this.state.cwd ?? this.file.cwd ?? this.workspace.path
    const absolute = resolve(isAbsolute(path) ? path : join(base, path))
    if (!isWithin(absolute, this.workspace.path) || absolute === this.workspace.path) return null
    return relative(this.workspace.path, absolute)
  }

  private skip(offset: number, reason: string): void {
    this.report.skipped.push({ file: this.readingFrom, offset, reason })
  }

  /** A file change its line records that could not be journaled: the line itself was imported, so it is not a skipped line. */
  private notJournaled(offset: number, reason: string): void {
    this.report.changesNotJournaled.push({ file: this.readingFrom, offset, reason })
  }
}

/** `/clear` as Claude Code writes it: a command (a prompt, or a local command shown as a system line) or a local-command line. */
function isClearCommand(record: MessageRecord): boolean {
  const command = (record.role === 'user' || record.role === 'system') && /^\/clear\b/.test(record.content.trim())
  return command || (record.role === 'system' && record.content.includes(CLEAR_COMMAND))
}

function toBuffer(content: string | null): Buffer | null {
  return content === null ? null : Buffer.from(content, 'utf8')
}

function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex')
}
