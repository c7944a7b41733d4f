import { performance } from 'node:perf_hooks'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRng, type Rng } from '../lib/prng'
import { editContent, type TextFactory } from './content'
import { flushDisk, hashFile } from './disk'
import type { RetraceSide } from './retrace-side'
import type { ShadowGit } from './shadow-git'
import { paired, timed, type Paired } from './timing'
import type { Workspace, WorkspaceFile } from './workspace'

// One round is one agent turn that edits `count` files, run against both sides, each on its own
// copy of the workspace (the same bytes): checkpoint before, edit both copies alike, capture
// (timed), rewind (timed). Each rewind must put back exactly the pristine bytes, checked by hash.

export interface RoundTimes {
  capture: Paired
  rewind: Paired
  /** git's rewind followed by `sync`: its checkout made as durable as Retrace's rewind (which fsyncs every file it writes). */
  gitDurableRewind: number[]
  /**
   * Retrace's rewind until the files it replaced are removed too: they are set aside while it
   * runs and removed once it has returned (src/main/journal/rewind/set-aside.ts). Same rounds.
   */
  retraceSettled: number[]
}

interface Edit {
  file: WorkspaceFile
  content: Buffer
}

/** A turn whose "before" checkpoint is already taken on both sides (the first capture's). */
export interface OpenTurn {
  turn: number
  baseCommit: string
}

export class EditRounds {
  private round = 0

  constructor(
    /** Retrace's copy of the workspace, and git's (the shadow repository's work tree). */
    private readonly copies: { retrace: Workspace; git: Workspace },
    private readonly retrace: RetraceSide,
    private readonly git: ShadowGit,
    private readonly text: TextFactory,
    private readonly options: { seed: number; verifySample: number; log: (line: string) => void },
    /** Consumed by the first round, so the first capture's checkpoint is the baseline of the first edit, as in the issue. */
    private open: OpenTurn | null
  ) {}

  /**
   * Run `rounds` rounds of `count` edited files. The side that goes first alternates, so neither
   * always meets the cache or the disk in the state the other left. `afterFirstCapture` runs once
   * both sides captured the first round (the "store size after both captures").
   */
  async run(count: number, rounds: number, afterFirstCapture?: () => void, options: { coldWorker?: boolean } = {}): Promise<RoundTimes> {
    const times: RoundTimes = { capture: paired(), rewind: paired(), gitDurableRewind: [], retraceSettled: [] }
    for (let i = 0; i < rounds; i++) {
      await this.one(count, times, i === 0 ? afterFirstCapture : undefined, options.coldWorker ?? false)
      this.options.log(`  ${count} files, round ${i + 1}/${rounds}: capture ${ms(times.capture.retrace.at(-1))} / git ${ms(times.capture.git.at(-1))}; rewind ${ms(times.rewind.retrace.at(-1))} (settled ${ms(times.retraceSettled.at(-1))}) / git ${ms(times.rewind.git.at(-1))} (+ sync ${ms(times.gitDurableRewind.at(-1))})`)
    }
    return times
  }

  /** `coldWorker`: Retrace's capture starts a new scan worker instead of the one kept from the scan before the turn. */
  private async one(count: number, times: RoundTimes, afterCapture: (() => void) | undefined, coldWorker: boolean): Promise<void> {
    const round = ++this.round
    const retraceFirst = round % 2 === 0
    const rng = createRng(this.options.seed * 1000 + round)
    const { turn, baseCommit } = await this.checkpointBefore()

    const edits = pickFiles(rng, this.copies.retrace.files, count).map((file): Edit => ({ file, content: editContent(file.kind, this.read(file), rng, this.text, round) }))
    this.apply(edits)

    // Capture: both sides see the same edited files.
    const captureRetrace = async () => {
      if (coldWorker) await this.retrace.endWorker()
      const { value: journaled, ms } = await timed(() => this.retrace.end(turn))
      if (journaled !== count) throw new Error(`Retrace journaled ${journaled} changes for ${count} edited files`)
      times.capture.retrace.push(ms)
    }
    const captureGit = async () => {
      const { ms } = await timed(() => this.git.checkpoint())
      const changed = this.git.changedPaths(baseCommit, this.git.head()).length
      if (changed !== count) throw new Error(`git committed ${changed} changed paths for ${count} edited files`)
      times.capture.git.push(ms)
    }
    for (const capture of retraceFirst ? [captureRetrace, captureGit] : [captureGit, captureRetrace]) await capture()
    afterCapture?.()

    // Rewind: each side its own copy, as it captured it.
    const rewindRetrace = async () => {
      const { value: written, ms } = await timed(() => this.retrace.rewind(turn))
      // Before anything else runs (git's rewind, say): the removal of the files it set aside.
      const settleStarted = performance.now()
      await this.retrace.settled()
      times.retraceSettled.push(ms + performance.now() - settleStarted)
      if (written !== count) throw new Error(`Retrace rewound ${written} files, expected ${count}`)
      times.rewind.retrace.push(ms)
      this.verifyPristine(rng, edits, this.copies.retrace, 'Retrace')
    }
    const rewindGit = async () => {
      const { ms } = await timed(() => this.git.restore(baseCommit))
      times.rewind.git.push(ms)
      // The same checkout's write-back, timed right after it: nothing else is dirty (every timed step starts after a sync).
      const syncStarted = performance.now()
      flushDisk()
      times.gitDurableRewind.push(ms + performance.now() - syncStarted)
      this.verifyPristine(rng, edits, this.copies.git, 'git')
    }
    for (const rewind of retraceFirst ? [rewindRetrace, rewindGit] : [rewindGit, rewindRetrace]) {
      flushDisk() // the other side's rewind left nothing to write back
      await rewind()
    }
  }

  /** Both sides checkpoint the workspace before the turn (untimed), as an agent's hooks would. */
  private async checkpointBefore(): Promise<OpenTurn> {
    if (this.open) {
      const open = this.open
      this.open = null
      return open
    }
    const turn = this.retrace.startTurn()
    await this.retrace.begin()
    this.git.checkpoint()
    return { turn, baseCommit: this.git.head() }
  }

  private read(file: WorkspaceFile): Buffer {
    return readFileSync(join(this.copies.retrace.root, file.path))
  }

  /** The turn's edits, written to both copies alike. */
  private apply(edits: Edit[]): void {
    for (const copy of [this.copies.retrace, this.copies.git]) for (const edit of edits) writeFileSync(join(copy.root, edit.file.path), edit.content)
    flushDisk()
  }

  /** Every edited file, and a sample of the others, must hash to the generated content. */
  private verifyPristine(rng: Rng, edits: Edit[], copy: Workspace, who: string): void {
    const others = pickFiles(rng, copy.files, this.options.verifySample)
    for (const file of [...edits.map((edit) => edit.file), ...others]) {
      if (hashFile(join(copy.root, file.path)) !== file.sha256) throw new Error(`After the ${who} rewind, ${file.path} does not hold its original bytes`)
    }
  }
}

/** `count` distinct files, uniformly (a partial Fisher–Yates shuffle over indices). */
export function pickFiles(rng: Rng, files: WorkspaceFile[], count: number): WorkspaceFile[] {
  const indices = files.map((_, index) => index)
  const picked: WorkspaceFile[] = []
  for (let i = 0; i < Math.min(count, files.length); i++) {
    const j = rng.int(i, indices.length - 1)
    ;[indices[i], indices[j]] = [indices[j] as number, indices[i] as number]
    picked.push(files[indices[i] as number] as WorkspaceFile)
  }
  return picked
}

const ms = (value: number | undefined): string => (value === undefined ? '?' : `${value.toFixed(0)} ms`)
