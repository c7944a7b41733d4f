import { randomUUID } from 'node:crypto'
import { RetraceError } from '../../../shared/contract'
import type { Store } from '../../store/store'
import type { Rewind } from '../../store/repositories/rewinds'
import type { FileJournal } from '../file-journal'
import { opFor } from '../file-journal'
import { type JournalEntry } from '../../store/repositories/journal'
import type { PathKey, RelPath } from '../../fs/paths'
import { whyNotAWorkspace } from '../protected-folders'
import type { ScannedFile } from '../scan/types'
import { realFsOps, WorkspaceFs, type FsOps } from '../workspace-fs'
import { applyPlan, warmRewindThreads, type ApplyOutcome, type ConflictChoice } from './apply'
import { planFromTargets, targetsFromEntries, type RewindPlan } from './plan'
import { type PathTarget } from './path-target'
import { SOURCES_RECORDED_HERE } from './provenance'
import { recoverInterruptedRewinds, type RecoveryReport } from './recover'
import type { Step } from './steps'
import { refuseMissingFolder } from './missing-folder'
import type { RewindFaultPlan } from './fault-plan'
import { previewDiff, targetOfPath, type PreviewDiffSide } from './preview-diff'
import { PreviewMemory } from './stale-preview'
import { versionTarget } from './version-target'
import type { FileDiff } from '../file-diff'

export interface ApplyOptions {
  /** The token of the plan the user reviewed: if the disk changed since, nothing is written. */
  token?: string
  choices?: Map<PathKey, ConflictChoice>
  /** For conflicts without an explicit choice. Skipping is the only choice that cannot lose work. */
  defaultChoice?: ConflictChoice
  /**
   * The files the user confirmed by path among those the plan says need it (a file that runs
   * code or grants access, from a history this computer did not record: see provenance.ts).
   * Any other such file is refused, not written.
   */
  confirmed?: ReadonlySet<PathKey>
  /** Paths the user unticked in the preview: left as they are, reported as skipped (see ApplyContext.excluded). */
  excluded?: ReadonlySet<PathKey>
  onProgress?: (done: number, total: number, path: string) => void
  /**
   * Conversation work that must happen together with the files (a fork): run inside the
   * transaction that records the rewind, before any file is touched. `forkSessionUid` names
   * the session it creates, so a rollback or crash recovery can remove it again.
   */
  alsoInTransaction?: () => void
  forkSessionUid?: string
}

export interface RewindResult extends ApplyOutcome {
  rewindId: string
}

/**
 * Rewinds of a store: plan (preview with conflicts), apply, undo, and start-up recovery. A
 * rewind is journaled as a scope of its own, so undoing it is just another rewind.
 */
export class RewindService {
  /** Workspaces with a rewind in progress in this process. */
  private readonly busy = new Set<number>()
  /** Rewinds this process is applying: their intent logs are open, and not to be recovered. */
  private readonly running = new Set<string>()
  /** Work rewinds left running when they returned: removing the files they set aside (apply.ts). */
  private readonly afterwards = new Set<Promise<void>>()
  /** Recent previews, so a refused apply names the files that changed since (stale-preview.ts). */
  private readonly previews = new PreviewMemory()

  constructor(
    private readonly store: Store,
    private readonly journal: FileJournal,
    /**
     * Says why files must not be rewound in a workspace folder (an agent's own data folder
     * opened as a workspace: its journal names the project's files), or null. Checked before any plan.
     */
    private readonly refuseFolder: (workspacePath: string) => string | null = () => null,
    /** What tests make rewinds fail at, or how they tune them (fault-plan.ts); none in the app. */
    private readonly faults: RewindFaultPlan = {}
  ) {}

  /** One rewind at a time per workspace: a second one is refused, not interleaved. */
  private async exclusive<T>(workspaceId: number, work: () => Promise<T>): Promise<T> {
    if (this.busy.has(workspaceId)) {
      throw new RetraceError('CONFLICT', 'A rewind is already running in this workspace; wait for it to finish, then review the preview again.')
    }
    this.busy.add(workspaceId)
    try {
      return await this.store.walCheckpoints.deferWhile(work, { raiseBound: true }) // no checkpoint competes with the rewind for the cores, or lands in its record's commit
    } finally {
      this.busy.delete(workspaceId)
    }
  }

  /** What rewinding a session's files to before `turn` would do. Writes nothing. */
  async planTurn(sessionId: string, turn: number): Promise<{ plan: RewindPlan; fs: WorkspaceFs; foldersBornAfter: number | null }> {
    const { session, fs } = this.sessionWorkspace(sessionId)
    if (turn < 1 || turn > Math.max(session.turnCount, 1)) {
      throw new RetraceError('NOT_FOUND', `Session "${session.title}" has no turn ${turn} (it has ${session.turnCount}).`)
    }
    await this.finishInterrupted(fs)
    const targets = targetsFromEntries(this.journal.repo.sessionEntriesFrom(session.rowId, turn))
    warmRewindThreads(targets.length)
    const plan = await planFromTargets(targets, fs, this.journal.blobs, this.scannedStates(session.workspaceId, targets), this.seenHere(session.workspaceId))
    // Saved snapshots found missing: rewinding to this checkpoint would leave some files as they
    // are, so the transcript shows it invalidated (never cleared: the content is gone).
    if (plan.items.some((item) => item.snapshotMissing)) this.store.checkpoints.invalidate(session.rowId, turn)
    this.previews.remember(plan)
    return { plan, fs, foldersBornAfter: this.store.rewinds.checkpointTime(session.rowId, turn) }
  }

  async applyTurn(sessionId: string, turn: number, options: ApplyOptions = {}): Promise<RewindResult> {
    const session = this.store.sessions.require(sessionId)
    return this.exclusive(session.workspaceId, async () => {
      const { plan, fs, foldersBornAfter } = await this.planTurn(sessionId, turn)
      return this.run(plan, fs, { workspaceId: session.workspaceId, sessionRowId: session.rowId, targetTurn: turn, undoOf: null, foldersBornAfter }, options)
    })
  }

  /** Plan the undo of a rewind: every file back to what the rewind replaced. */
  async planUndo(rewindId: string): Promise<{ plan: RewindPlan; fs: WorkspaceFs; rewind: Rewind }> {
    const rewind = this.requireRewind(rewindId)
    if (rewind.status !== 'applied') throw new RetraceError('CONFLICT', `Rewind ${rewindId} is ${rewind.status}; only an applied rewind can be undone.`)
    const workspace = this.store.workspaces.get(rewind.workspaceId)
    if (!workspace || rewind.beforeScopeId === null) throw new RetraceError('NOT_FOUND', `Rewind ${rewindId} has no recorded workspace state.`)
    const fs = this.workspaceFs(workspace.path)
    await this.finishInterrupted(fs)
    const targets = targetsFromEntries(this.journal.repo.entriesOfScope(rewind.beforeScopeId))
    warmRewindThreads(targets.length)
    const plan = await planFromTargets(targets, fs, this.journal.blobs, this.scannedStates(rewind.workspaceId, targets), this.seenHere(rewind.workspaceId))
    this.previews.remember(plan)
    return { plan, fs, rewind }
  }

  /**
   * One path's line diff in the preview of a rewind to before a turn, or of an undo: the disk
   * now against what it writes, or (`yours`) what the agent left against the disk now. Reads only.
   */
  async diffOfPath(of: { sessionId: string; turn: number } | { rewindId: string } | { workspaceId: number; hash: string }, path: RelPath, which: PreviewDiffSide): Promise<FileDiff> {
    if ('hash' in of) {
      const fs = this.workspaceFsOf(of.workspaceId)
      return previewDiff(fs, this.journal.blobs, versionTarget(this.journal.repo.pathHistory(of.workspaceId, path), path, of.hash), which)
    }
    if ('rewindId' in of) {
      const rewind = this.requireRewind(of.rewindId)
      const workspace = this.store.workspaces.get(rewind.workspaceId)
      if (!workspace || rewind.beforeScopeId === null) throw new RetraceError('NOT_FOUND', `Rewind ${of.rewindId} has no recorded workspace state.`)
      const targets = targetsFromEntries(this.journal.repo.entriesOfScope(rewind.beforeScopeId))
      return previewDiff(this.workspaceFs(workspace.path), this.journal.blobs, targetOfPath(targets, path), which)
    }
    const { session, fs } = this.sessionWorkspace(of.sessionId)
    const targets = targetsFromEntries(this.journal.repo.sessionEntriesFrom(session.rowId, of.turn))
    return previewDiff(fs, this.journal.blobs, targetOfPath(targets, path), which)
  }

  /**
   * "Restore this version": a one-file rewind of `path` to a version its history recorded, with
   * the same preview, conflicts (the disk against the journal's last state there) and undo.
   */
  async planVersion(workspaceId: number, path: RelPath, hash: string): Promise<{ plan: RewindPlan; fs: WorkspaceFs }> {
    const fs = this.workspaceFsOf(workspaceId)
    await this.finishInterrupted(fs)
    const targets = [versionTarget(this.journal.repo.pathHistory(workspaceId, path), path, hash)]
    const plan = await planFromTargets(targets, fs, this.journal.blobs, this.scannedStates(workspaceId, targets), this.seenHere(workspaceId))
    this.previews.remember(plan)
    return { plan, fs }
  }

  async applyVersion(workspaceId: number, path: RelPath, hash: string, options: ApplyOptions = {}): Promise<RewindResult> {
    return this.exclusive(workspaceId, async () => {
      const { plan, fs } = await this.planVersion(workspaceId, path, hash)
      // One file, no folder removed: the version may come from any session or time.
      return this.run(plan, fs, { workspaceId, sessionRowId: null, targetTurn: null, undoOf: null, foldersBornAfter: null }, options)
    })
  }

  private workspaceFsOf(workspaceId: number): WorkspaceFs {
    const workspace = this.store.workspaces.get(workspaceId)
    if (!workspace) throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}.`)
    return this.workspaceFs(workspace.path)
  }

  async undo(rewindId: string, options: ApplyOptions = {}): Promise<RewindResult> {
    return this.exclusive(this.requireRewind(rewindId).workspaceId, async () => {
      const { plan, fs, rewind } = await this.planUndo(rewindId)
      // Folders born after the rewind began are the ones it made: they go with its files.
      const result = await this.run(plan, fs, { workspaceId: rewind.workspaceId, sessionRowId: rewind.sessionRowId, targetTurn: null, undoOf: rewindId, foldersBornAfter: rewind.createdAt }, options)
      this.store.rewinds.markUndone(rewindId)
      return result
    })
  }

  /** The last scan's record of each target path (see planFromTargets). */
  private scannedStates(workspaceId: number, targets: PathTarget[]): Map<PathKey, ScannedFile> {
    return this.store.fileStates.statesOf(workspaceId, targets.map((target) => target.path))
  }

  /** The versions of some paths this machine saw itself (see provenance.ts). */
  private seenHere(workspaceId: number) {
    return (paths: RelPath[]) => this.store.journal.versionsSeenHere(workspaceId, paths, SOURCES_RECORDED_HERE)
  }

  /**
   * Finish (by rolling back) every rewind a crash interrupted, leaving alone what was changed
   * since (recover.ts). Run at start-up, before anything reads or writes the journal.
   */
  recover(ops: FsOps = this.faults.ops ?? realFsOps, root?: Buffer): Promise<RecoveryReport> {
    return recoverInterruptedRewinds(this.store.dataDir, this.journal.blobs, ops, {
      running: this.running,
      ...(root ? { root } : {}),
      finish: (intent, conflicts) => {
        if (this.store.rewinds.get(intent.rewindId)) this.store.rewinds.recordRecovery(intent.rewindId, conflicts)
        if (intent.forkSessionUid) this.removeSession(intent.forkSessionUid)
      }
    })
  }

  /**
   * Before a plan: a rewind of this workspace interrupted since start-up (another process
   * killed, or a rollback here that could not finish) is recovered now. One that cannot be, or
   * that another live process is applying, refuses the plan: nothing is written.
   */
  private async finishInterrupted(fs: WorkspaceFs): Promise<void> {
    const report = await this.recover(realFsOps, fs.root)
    const [elsewhere] = report.runningElsewhere
    if (elsewhere) {
      throw new RetraceError('CONFLICT', `Another Retrace process (pid ${elsewhere.pid}) is rewinding files in this workspace. Wait for it to finish, then review the preview again. Nothing was written.`)
    }
    const [failed] = report.failed
    if (failed) {
      throw new RetraceError('IO_ERROR', `A rewind of this workspace was interrupted and could not be finished yet (${failed.reason}). Nothing else will be rewound here until it is; Retrace tries again at every start and every preview.`)
    }
  }

  /**
   * Settles once the work that returned rewinds left running is done, so the workspace holds
   * no file of Retrace's. A one-shot command waits for it before it exits.
   */
  async settled(): Promise<void> {
    while (this.afterwards.size > 0) await Promise.all(this.afterwards)
  }

  rewindsOfSession(sessionRowId: number): Rewind[] {
    return this.store.rewinds.ofSession(sessionRowId)
  }

  private async run(plan: RewindPlan, fs: WorkspaceFs, meta: RewindMeta, options: ApplyOptions): Promise<RewindResult> {
    if (options.token !== undefined && options.token !== plan.token) {
      throw new RetraceError('CONFLICT', this.previews.staleMessage(options.token, plan))
    }
    refuseUnconfirmed(plan, options.confirmed ?? new Set())
    const rewindId = randomUUID()
    let recorded = false
    this.running.add(rewindId)
    try {
      const outcome = await applyPlan(plan, options.choices ?? new Map<PathKey, ConflictChoice>(), options.defaultChoice ?? 'skip', {
        fs,
        blobs: this.journal.blobs,
        ops: this.faults.ops ?? realFsOps,
        dataDir: this.store.dataDir,
        rewindId,
        ...(meta.foldersBornAfter !== null ? { foldersBornAfter: meta.foldersBornAfter } : {}),
        ...(options.forkSessionUid ? { forkSessionUid: options.forkSessionUid } : {}),
        ...(options.excluded ? { excluded: options.excluded } : {}),
        record: (steps) => {
          // Flushed to the disk before any file changes: the content and journal entries it names
          // must outlive a power cut that the rewound files outlive.
          this.store.durableTransaction(() => {
            this.recordRewind(rewindId, meta, steps)
            options.alsoInTransaction?.()
          })
          recorded = true
        },
        afterwards: (work) => {
          this.afterwards.add(work)
          void work.then(() => this.afterwards.delete(work))
        },
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(this.faults.afterStep ? { afterStep: this.faults.afterStep } : {}),
        ...(this.faults.batchFrom !== undefined ? { batchFrom: this.faults.batchFrom } : {}),
        ...(this.faults.threadFault ? { threadFault: this.faults.threadFault } : {}),
        ...(this.faults.flushFault ? { flushFault: this.faults.flushFault } : {})
      })
      this.store.rewinds.finish(rewindId, 'applied', { changed: outcome.steps.length, skipped: outcome.skipped.length, refused: outcome.refused.length })
      return { rewindId, ...outcome }
    } catch (error) {
      if (recorded) {
        this.store.rewinds.finish(rewindId, 'failed')
        if (options.forkSessionUid) this.removeSession(options.forkSessionUid)
      }
      throw error
    } finally {
      this.running.delete(rewindId)
    }
  }

  /** Undo the conversation half of an intent whose files were rolled back. */
  private removeSession(uid: string): void {
    const session = this.store.sessions.get(uid)
    if (session) this.store.sessions.delete(session.rowId)
  }

  private recordRewind(rewindId: string, meta: RewindMeta, steps: Step[]): void {
    this.store.transaction(() => {
      const scopeId = this.journal.repo.openScope({ workspaceId: meta.workspaceId, sessionRowId: meta.sessionRowId, turn: null, kind: 'rewind' })
      for (const step of steps) {
        const entry: Omit<JournalEntry, 'id' | 'createdAt'> =
          step.kind === 'keep' && step.keptAs
            ? { scopeId, op: 'rename', path: step.keptAs, fromPath: step.path, before: step.pre, after: step.pre, observed: 'rewind' }
            : { scopeId, op: opFor(step.pre, step.post), path: step.path, fromPath: null, before: step.pre, after: step.post, observed: 'rewind' }
        this.journal.repo.addEntry(entry)
      }
      this.journal.repo.closeScope(scopeId)
      this.store.rewinds.insert({ id: rewindId, workspaceId: meta.workspaceId, sessionRowId: meta.sessionRowId, targetTurn: meta.targetTurn, undoOf: meta.undoOf, beforeScopeId: scopeId })
    })
  }

  private requireRewind(rewindId: string): Rewind {
    const row = this.store.rewinds.get(rewindId)
    if (!row) throw new RetraceError('NOT_FOUND', `No rewind with id ${rewindId}.`)
    return row
  }

  private sessionWorkspace(sessionId: string) {
    const session = this.store.sessions.require(sessionId)
    const workspace = this.store.workspaces.get(session.workspaceId)
    if (!workspace) throw new RetraceError('NOT_FOUND', `The workspace of session ${sessionId} is gone.`)
    return { session, fs: this.workspaceFs(workspace.path, sessionId) }
  }

  /**
   * The workspace's files, unless the folder must never have files rewound in it: a workspace
   * row an earlier version made for the home folder or `/` (see protected-folders.ts), or one
   * `refuseFolder` names; and not when the folder is gone.
   */
  private workspaceFs(path: string, sessionId?: string): WorkspaceFs {
    refuseMissingFolder(path, sessionId)
    const refused = whyNotAWorkspace(path) ?? this.refuseFolder(path)
    if (refused) throw new RetraceError('CONFLICT', refused)
    return new WorkspaceFs(path)
  }
}

/** A file that needed the user's confirmation and did not get it is refused, with the reason and what to do. */
function refuseUnconfirmed(plan: RewindPlan, confirmed: ReadonlySet<PathKey>): void {
  for (const item of plan.items) {
    if (!item.needsConfirmation || item.refused || item.action === 'none' || confirmed.has(item.key)) continue
    item.refused = `not confirmed: it ${item.needsConfirmation}, and it comes from a history this computer did not record. Tick it in the preview (or pass --allow-sensitive) to let the rewind write it.`
  }
}

/** What a rewind records about itself. */
interface RewindMeta {
  workspaceId: number
  sessionRowId: number | null
  targetTurn: number | null
  undoOf: string | null
  /** When the state it restores was current; null: no folder is removed (see folders.ts). */
  foldersBornAfter: number | null
}

export type { Rewind }
