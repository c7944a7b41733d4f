import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { RetraceSide } from './retrace-side'
import { ShadowGit } from './shadow-git'
import { paired, timed, type Paired } from './timing'
import type { Workspace } from './workspace'

export interface FirstCapture {
  times: Paired
  /** The last round's stores, kept: the edit rounds continue from them. */
  retrace: RetraceSide
  git: ShadowGit
  /** Retrace's turn whose "before" scan was the first capture, and git's first commit. */
  turn: number
  baseCommit: string
}

/**
 * The first capture of the whole workspace, into an empty store each time: Retrace's first
 * `TurnCapture.begin` (every file read, hashed and stored) against `git init` + `add -A` +
 * `commit` into a fresh shadow repository, each of its own copy of the workspace. Rounds
 * alternate which side goes first.
 */
export async function measureFirstCapture(copies: { retrace: Workspace; git: Workspace }, dir: string, rounds: number, log: (line: string) => void): Promise<FirstCapture> {
  const workspace = copies.retrace
  const times = paired()
  let kept: Omit<FirstCapture, 'times'> | null = null
  for (let round = 1; round <= rounds; round++) {
    const retrace = await RetraceSide.open(join(dir, `retrace-${round}`), workspace.root)
    const git = new ShadowGit(join(dir, `shadow-${round}.git`), copies.git.root)
    const turn = retrace.startTurn()
    const captureRetrace = async () => {
      const { value: files, ms } = await timed(() => retrace.begin())
      if (files !== workspace.files.length) throw new Error(`Retrace's first capture saw ${files} of ${workspace.files.length} files`)
      times.retrace.push(ms)
    }
    const captureGit = async () => {
      const { ms } = await timed(() => git.initAndCommit())
      const tracked = git.git('ls-tree', '-r', '--name-only', 'HEAD').split('\n').filter(Boolean).length
      if (tracked !== workspace.files.length) throw new Error(`git's first commit holds ${tracked} of ${workspace.files.length} files`)
      times.git.push(ms)
    }
    for (const capture of round % 2 === 0 ? [captureRetrace, captureGit] : [captureGit, captureRetrace]) await capture()
    log(`  first capture, round ${round}/${rounds}: Retrace ${times.retrace.at(-1)?.toFixed(0)} ms, git ${times.git.at(-1)?.toFixed(0)} ms`)

    if (kept) discard(kept)
    kept = { retrace, git, turn, baseCommit: git.head() }
  }
  if (!kept) throw new Error('measureFirstCapture needs at least one round')
  return { times, ...kept }
}

/** A previous round's stores: only the last round's go on to the edit rounds. */
function discard(stores: Omit<FirstCapture, 'times'>): void {
  stores.retrace.close()
  rmSync(stores.retrace.dataDir, { recursive: true, force: true })
  rmSync(stores.git.gitDir, { recursive: true, force: true })
}
