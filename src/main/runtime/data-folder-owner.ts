import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { currentOwner, isOwnerAlive } from '../journal/process-owner'
import { lockDataFolder } from '../store/folder-lock'
import { PRIVATE_FILE_MODE, privateFile } from '../store/private-files'

/** Who owns the folder's background work, for whoever else starts on it (readable by the user only, like the folder). */
const OWNER_FILE = 'app.pid'

/** The process that owns a data folder's background work, as its `app.pid` names it. */
export interface DataFolderOwner {
  pid: number
  /** The process's start (journal/process-owner.ts), so that a reused pid is not taken for it. */
  started?: string
  /** What it is: "the Retrace app" or "retrace serve". */
  by: string
  /** Where it can be reached, once it serves (`retrace serve`'s URL, token included). */
  url?: string
}

/**
 * Whether this process owns the data folder. Exactly one process does at a time (the app or the
 * first `retrace serve`): it imports every agent's history in the background and takes the
 * turns agents' hooks hand over. Any other one on the folder does neither; `owner` says who does.
 */
export type DataFolderClaim =
  | { owned: true; /** Tell later comers where this process can be reached. */ announce(url: string): void; release(): void }
  | { owned: false; owner: DataFolderOwner | null }

/**
 * Claim the data folder's background work for this process. The lock (store/folder-lock.ts) is
 * the operating system's, dropped when its process ends however it ends, so a crashed owner is
 * taken over by the next start with nothing to prove stale; `app.pid` only says who holds it,
 * written and removed by the holder alone, under the lock.
 */
export function claimDataFolder(dataDir: string, by: string): DataFolderClaim {
  const lock = lockDataFolder(dataDir)
  if (!lock) return { owned: false, owner: dataFolderOwner(dataDir) }
  const file = join(dataDir, OWNER_FILE)
  const self: DataFolderOwner = { ...currentOwner(), by }
  const publish = (owner: DataFolderOwner) => {
    try {
      writeOwnerFile(file, owner)
    } catch {
      // Unwritable: later comers are told "another Retrace process" instead of which one.
    }
  }
  publish(self)
  let held = true
  return {
    owned: true,
    announce: (url) => {
      if (held) publish({ ...self, url })
    },
    release: () => {
      if (!held) return
      held = false
      try {
        unlinkSync(file)
      } catch {
        // already gone
      }
      lock.release()
    }
  }
}

/** The live process owning this data folder's background work (the app or `retrace serve`), or null. */
export function dataFolderOwner(dataDir: string): DataFolderOwner | null {
  let text: string
  try {
    text = readFileSync(join(dataDir, OWNER_FILE), 'utf8')
  } catch {
    return null
  }
  const owner = parseOwner(text)
  return owner && isOwnerAlive(owner) ? owner : null
}

/** What a process that is not the owner says when it starts on the folder. */
export function notOwnerNotice(dataDir: string, owner: DataFolderOwner | null): string {
  const who = owner ? `${owner.by} (pid ${owner.pid}${owner.url ? `, at ${owner.url}` : ''})` : 'another Retrace process'
  return `The data folder ${dataDir} is in use by ${who}, which imports the agents' histories in the background and takes their hooks' turns: this one leaves both to it.`
}

/** Written whole or not at all: a reader never sees half of it. */
function writeOwnerFile(file: string, owner: DataFolderOwner): void {
  const temp = `${file}.${process.pid}.tmp`
  writeFileSync(temp, `${JSON.stringify(owner)}\n`, { mode: PRIVATE_FILE_MODE })
  privateFile(temp)
  renameSync(temp, file)
}

/** The owner a file names; an older Retrace wrote the bare pid. */
function parseOwner(text: string): DataFolderOwner | null {
  const bare = Number(text.trim())
  if (Number.isInteger(bare) && bare > 0) return { pid: bare, by: 'a Retrace app' }
  try {
    const value = JSON.parse(text) as Partial<DataFolderOwner>
    if (!Number.isInteger(value.pid) || (value.pid ?? 0) <= 0) return null
    return {
      pid: value.pid as number,
      by: typeof value.by === 'string' ? value.by : 'a Retrace app',
      ...(typeof value.started === 'string' ? { started: value.started } : {}),
      ...(typeof value.url === 'string' ? { url: value.url } : {})
    }
  } catch {
    return null
  }
}
