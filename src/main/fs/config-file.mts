/**
 * Reading a settings file found in a workspace or an agent's folder (`.mcp.json`,
 * `.aider.conf.yml`, `settings.json`, `config.toml`, `hooks.json`, `.gitignore`…): such a file
 * may be anything a cloned repository holds. `readFileSync` on a link to `/dev/zero` grows its
 * buffer until the process aborts, and on a FIFO it waits for a writer forever. So a file is read
 * only when it is a regular file (a link is followed only to one), up to a bound, with
 * `O_NONBLOCK` so that a file swapped for a FIFO after the check cannot block the open either,
 * and checked again through the open descriptor. Anything else is refused with a sentence that
 * names the file.
 *
 * A leaf module of erasable TypeScript, `.mts` and with node builtins only, so the scan worker
 * loads it as it is (see journal/scan/scan-worker.mts).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, statSync, type Stats } from 'node:fs'

/** Settings files are a few KB; a few MB is already far more than any agent writes. */
export const CONFIG_FILE_MAX_BYTES = 4 * 1024 * 1024

// O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer. O_NOCTTY: a
// terminal named like a settings file does not become this process's. Both are 0 on Windows.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0)

/** A settings file Retrace will not read (or write through): `message` names it and says why. */
export class ConfigFileRefused extends Error {
  readonly file: string
  constructor(file: string | Buffer, message: string) {
    super(message)
    this.name = 'ConfigFileRefused'
    this.file = shown(file)
  }
}

/**
 * The bytes of the settings file at `path` (a link followed to a regular file), or null when
 * there is nothing there (no file, a missing folder on the way, a link to nothing). Throws
 * ConfigFileRefused when it is a folder, a FIFO, a device or a socket, when it is larger than
 * `maxBytes`, or when it cannot be read; never blocks.
 */
export function readConfigFile(path: string | Buffer, options: { maxBytes?: number } = {}): Buffer | null {
  const maxBytes = options.maxBytes ?? CONFIG_FILE_MAX_BYTES
  let stats: Stats
  try {
    stats = statSync(path)
  } catch (error) {
    if (isAbsent(error)) return null
    throw cannotRead(path, error)
  }
  refuseUnlessSmallRegularFile(path, stats, maxBytes)
  let fd: number
  try {
    fd = openSync(path, OPEN_FLAGS)
  } catch (error) {
    if (isAbsent(error)) return null
    throw cannotRead(path, error)
  }
  try {
    const opened = fstatSync(fd)
    // Swapped between the stat and the open (a FIFO, a device, another file): judged again as opened.
    refuseUnlessSmallRegularFile(path, opened, maxBytes)
    return readUpTo(fd, path, maxBytes)
  } finally {
    closeSync(fd)
  }
}

/** `readConfigFile` as UTF-8 text. */
export function readConfigText(path: string | Buffer, options: { maxBytes?: number } = {}): string | null {
  return readConfigFile(path, options)?.toString('utf8') ?? null
}

/** What is at `path`, in words, for a refusal: "a named pipe (FIFO)", "a link to /dev/zero (a character device)". */
export function describeSpecialFile(path: string | Buffer, stats: Stats): string {
  const kind = kindOf(stats)
  try {
    if (lstatSync(path).isSymbolicLink()) return `a link to ${readlinkSync(path)} (${kind})`
  } catch {
    // Gone since: the kind alone says enough.
  }
  return kind
}

function refuseUnlessSmallRegularFile(path: string | Buffer, stats: Stats, maxBytes: number): void {
  if (!stats.isFile()) throw new ConfigFileRefused(path, `${shown(path)} is ${describeSpecialFile(path, stats)}, not a regular file: Retrace does not read it as settings. Replace it with a plain file, or remove it.`)
  if (stats.size > maxBytes) throw tooLarge(path, stats.size, maxBytes)
}

/** At most `maxBytes`: a file that grew past the bound since its stat is refused, not read on. */
function readUpTo(fd: number, path: string | Buffer, maxBytes: number): Buffer {
  const chunks: Buffer[] = []
  let total = 0
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - total))
    let read: number
    try {
      read = readSync(fd, chunk, 0, chunk.length, null)
    } catch (error) {
      throw cannotRead(path, error)
    }
    if (read === 0) return Buffer.concat(chunks, total)
    chunks.push(chunk.subarray(0, read))
    total += read
    if (total > maxBytes) throw new ConfigFileRefused(path, `${shown(path)} grew past ${megabytes(maxBytes)} while Retrace read it: Retrace does not read it as settings.`)
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder'
  if (stats.isFIFO()) return 'a named pipe (FIFO)'
  if (stats.isCharacterDevice()) return 'a character device'
  if (stats.isBlockDevice()) return 'a block device'
  if (stats.isSocket()) return 'a socket'
  return 'not a regular file'
}

function tooLarge(path: string | Buffer, size: number, maxBytes: number): ConfigFileRefused {
  return new ConfigFileRefused(path, `${shown(path)} is ${megabytes(size)}, more than the ${megabytes(maxBytes)} a settings file may have: Retrace does not read it. Shorten it, or move it away.`)
}

/** A path for a sentence (a Buffer path is a name the scan keeps as bytes). */
function shown(path: string | Buffer): string {
  return typeof path === 'string' ? path : path.toString('utf8')
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`
}

function isAbsent(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

function cannotRead(path: string | Buffer, error: unknown): ConfigFileRefused {
  const code = (error as NodeJS.ErrnoException).code
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ELOOP' ? 'its links loop' : (code ?? (error as Error).message)
  return new ConfigFileRefused(path, `${shown(path)} cannot be read (${why}): Retrace leaves it as it is.`)
}
