import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fsyncPath, writeDurably } from '../durable-file'
import type { FileVersion } from '../../store/repositories/journal'
import type { RelPath } from '../../fs/paths'
import { currentOwner, isProcessAlive, ownerOfTempName } from '../process-owner'
import type { Step } from './steps'

/**
 * The intent log: every step of a rewind, with pre and post states, written durably before the
 * first file is touched. If the process dies mid-rewind, start-up finds the log and puts every
 * file back to its pre state.
 */
export interface Intent {
  version: 1
  rewindId: string
  root: string
  /** The root's device and inode when the rewind began (decimal): recovery refuses a root whose path leads elsewhere since. */
  rootIdentity?: { dev: string; ino: string }
  /** When the rewind began (ms): the folders it made are born after it (folders.ts). */
  startedAt?: number
  steps: Step[]
  /** The process applying the rewind (see ProcessOwner): while it lives, nobody else may recover this intent. */
  pid?: number
  started?: string
  /** A branch session created in the same intent (fork with files): removed if the files are rolled back. */
  forkSessionUid?: string
}

interface StoredStep {
  kind: Step['kind']
  path: string
  keptAs?: string
  /** The name (base64) beside the path where the step moves the file it replaces (Step.aside). */
  aside?: string
  pre: FileVersion | null
  post: FileVersion | null
}

const b64 = (path: Buffer) => path.toString('base64')
const fromB64 = (text: string) => Buffer.from(text, 'base64') as RelPath

/** Intent logs are `<id>.json` while the rewind may still be rolled back, `<id>.applied` once it is complete but has files set aside. */
const OPEN = '.json'
const APPLIED = '.applied'
/** An intent log being written: `<pid>-<id>.json.tmp`, renamed to `<id>.json` once whole and durable. */
const TEMP = '.tmp'

export function intentDir(dataDir: string): string {
  return join(dataDir, 'intents')
}

export function writeIntent(dataDir: string, intent: Intent): void {
  const dir = intentDir(dataDir)
  mkdirSync(dir, { recursive: true })
  const stored = {
    ...intent,
    ...currentOwner(),
    steps: intent.steps.map((step): StoredStep => ({ kind: step.kind, path: b64(step.path), ...(step.keptAs ? { keptAs: b64(step.keptAs) } : {}), ...(step.aside ? { aside: b64(step.aside.subarray(step.aside.lastIndexOf(0x2f) + 1)) } : {}), pre: step.pre, post: step.post }))
  }
  // Whole or not at all under its name: written and fsynced under a temp name, then renamed.
  // (Written in place, a crash mid-write left a torn log that every later start warned about.)
  const temp = join(dir, `${process.pid}-${intent.rewindId}${OPEN}${TEMP}`)
  try {
    writeDurably(temp, Buffer.from(JSON.stringify(stored)))
    renameSync(temp, join(dir, `${intent.rewindId}${OPEN}`))
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
  fsyncPath(dir)
}

/** Temp files of intent logs whose writer died before renaming them (their names start with its pid). */
export function removeStaleIntentTemps(dataDir: string): void {
  let names: string[]
  try {
    names = readdirSync(intentDir(dataDir)).filter((name) => name.endsWith(TEMP))
  } catch {
    return
  }
  for (const name of names) {
    const pid = ownerOfTempName(name)
    if (pid === null || !isProcessAlive(pid)) rmSync(join(intentDir(dataDir), name), { force: true })
  }
}

export function removeIntent(dataDir: string, rewindId: string): void {
  rmSync(join(intentDir(dataDir), `${rewindId}${OPEN}`), { force: true })
  fsyncPath(intentDir(dataDir))
}

/**
 * The rewind is complete, but files it set aside (set-aside.ts) are still beside their targets:
 * from now on a crash only sweeps them. Durable before the rewind returns, as removing the log
 * would be: a power cut must not roll back a rewind the user saw finish.
 */
export function markIntentApplied(dataDir: string, rewindId: string): void {
  renameSync(join(intentDir(dataDir), `${rewindId}${OPEN}`), join(intentDir(dataDir), `${rewindId}${APPLIED}`))
  fsyncPath(intentDir(dataDir))
}

/** The set-aside files are gone. Not fsynced: a mark that comes back after a power cut only sweeps again. */
export function removeAppliedIntent(dataDir: string, rewindId: string): void {
  rmSync(join(intentDir(dataDir), `${rewindId}${APPLIED}`), { force: true })
}

/** Intent logs still on disk: rewinds that never finished. An unreadable log is reported, not guessed at. */
export function openIntents(dataDir: string): { intents: Intent[]; unreadable: string[] } {
  return intentsEnding(dataDir, OPEN)
}

/** Complete rewinds whose set-aside files were not all removed (the process ended first). */
export function appliedIntents(dataDir: string): { intents: Intent[]; unreadable: string[] } {
  return intentsEnding(dataDir, APPLIED)
}

/** The absolute path of `name` in the folder of `path` (relative to `root`). */
function besideOf(root: Buffer, path: Buffer, name: Buffer): Buffer {
  const slash = path.lastIndexOf(0x2f)
  return Buffer.concat([root, Buffer.from('/'), slash < 0 ? Buffer.alloc(0) : path.subarray(0, slash + 1), name])
}

function intentsEnding(dataDir: string, extension: string): { intents: Intent[]; unreadable: string[] } {
  const dir = intentDir(dataDir)
  let names: string[]
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(extension))
  } catch {
    return { intents: [], unreadable: [] }
  }
  const intents: Intent[] = []
  const unreadable: string[] = []
  for (const name of names) {
    try {
      const stored = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Omit<Intent, 'steps'> & { steps: StoredStep[] }
      const root = Buffer.from(stored.root, 'base64')
      intents.push({
        ...stored,
        steps: stored.steps.map((step) => {
          const path = fromB64(step.path)
          return { kind: step.kind, path, ...(step.keptAs ? { keptAs: fromB64(step.keptAs) } : {}), ...(step.aside ? { aside: besideOf(root, path, fromB64(step.aside)) } : {}), pre: step.pre, post: step.post }
        })
      })
    } catch {
      unreadable.push(join(dir, name))
    }
  }
  return { intents, unreadable }
}
