import { mkdirSync, readFileSync, renameSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fsyncPath } from '../durable-file'
import { appliedIntents, intentDir, openIntents } from './intent-log'

/**
 * An intent log Retrace cannot read (intent-log.ts reports it, and leaves it and the files it
 * may name alone). Written whole under a temp name and renamed since, a log is only ever torn
 * if an earlier version was killed while writing it in place, or if the disk damaged it. Left
 * where it is, it would be warned about at every start, forever: `retrace recovery` says what
 * it is and moves it to `intents/unreadable/`, where nothing reads it, bytes kept for a person.
 */
export interface UnreadableIntent {
  file: string
  bytes: number
  /** Why it cannot be read, in words: "its JSON ends early …", "its JSON is malformed …". */
  why: string
  /** The workspace folder it names, when that much of it can still be read. */
  root: string | null
}

/** Every intent log of the data folder that cannot be read, open or applied. */
export function unreadableIntents(dataDir: string): UnreadableIntent[] {
  return [...openIntents(dataDir).unreadable, ...appliedIntents(dataDir).unreadable].map(describe)
}

function describe(file: string): UnreadableIntent {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    return { file, bytes: 0, why: `it cannot be opened (${(error as Error).message})`, root: null }
  }
  return { file, bytes: Buffer.byteLength(text), why: whyUnreadable(text), root: rootNamed(text) }
}

function whyUnreadable(text: string): string {
  if (text.length === 0) return 'it is empty: torn by a crash while it was being written, before the rewind changed any file'
  try {
    JSON.parse(text)
  } catch (error) {
    const message = (error as Error).message
    // Node says "Unexpected end of JSON input", or names a position at the very end (an unterminated string, say).
    const at = /position (\d+)/.exec(message)
    const endsEarly = /end of JSON input|Unterminated/.test(message) || (at !== null && Number(at[1]) >= text.length)
    if (endsEarly) return 'its JSON ends early: torn by a crash while it was being written, before the rewind changed any file'
    return `its JSON is malformed (${message}): damaged after it was written`
  }
  return 'it is JSON, but not an intent log this version of Retrace can read'
}

/** The base64 root path of a (possibly torn) log, if its text still holds it whole. */
function rootNamed(text: string): string | null {
  const match = /"root":"([A-Za-z0-9+/=]+)"/.exec(text)
  return match?.[1] ? Buffer.from(match[1], 'base64').toString() : null
}

/** Move an unreadable log to `intents/unreadable/`, where no start looks; returns where it went. */
export function clearUnreadableIntent(dataDir: string, file: string): string {
  const dir = join(intentDir(dataDir), 'unreadable')
  mkdirSync(dir, { recursive: true })
  const to = join(dir, basename(file))
  renameSync(file, to)
  fsyncPath(intentDir(dataDir))
  return to
}

/** One unreadable log, as `retrace recovery` says it before clearing it. */
export function describeUnreadableIntent(intent: UnreadableIntent, movedTo: string): string {
  const names = intent.root ? `, of a rewind in ${intent.root}` : ''
  return `The intent log ${intent.file} cannot be read (${intent.bytes} bytes${names}): ${intent.why}. Retrace put back nothing from it. Moved it to ${movedTo}, where Retrace no longer reads it.`
}
