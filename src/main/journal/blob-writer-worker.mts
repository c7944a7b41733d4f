/**
 * A blob writer thread: decodes an inline blob, checks it against its hash and writes it to a
 * new file (see blob-writers.ts). A large rewind spends most of its time here, per file, and
 * a thread of its own lets that run on another core while the main thread renames the files
 * already written into place.
 *
 * Self-contained on purpose, like scan-worker.mts: only node:* builtins and `import type`, and
 * only erasable TypeScript, because under vitest Node runs this file directly.
 */
import { createHash } from 'node:crypto'
import { execFile } from 'node:child_process'
import { closeSync, constants, fchmodSync, fsyncSync, openSync, unlinkSync, writeSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'
import { inflateRawSync } from 'node:zlib'
import type { SyncRequest, WriteRequest, WriterReply, WriterRequest } from './blob-writer-protocol'

if (!parentPort) throw new Error('blob-writer-worker.mts must run in a worker thread')
const port = parentPort

// A fresh file only: never one that exists, never through a link planted at the name.
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0)

port.on('message', (request: WriterRequest) => {
  if (request.kind === 'write') port.postMessage(write(request))
  else syncFileSystem(request)
})

function write(request: WriteRequest): WriterReply {
  const { id } = request
  const stored = Buffer.from(request.data.buffer, request.data.byteOffset, request.data.byteLength)
  let content: Buffer
  try {
    content = request.encoding === 'deflate' ? inflateRawSync(stored, request.dictionary ? { dictionary: request.dictionary } : undefined) : stored
  } catch (error) {
    return { id, ok: false, kind: 'corrupt', message: `its stored data cannot be decoded (${(error as Error).message})` }
  }
  if (createHash('sha256').update(content).digest('hex') !== request.hash) {
    return { id, ok: false, kind: 'corrupt', message: 'its content does not match its hash (corrupt)' }
  }
  const target = Buffer.from(request.target.buffer, request.target.byteOffset, request.target.byteLength)
  let fd: number
  try {
    fd = openSync(target, CREATE_FLAGS, request.mode)
  } catch (error) {
    return ioFailure(id, error)
  }
  try {
    for (let offset = 0; offset < content.length; ) offset += writeSync(fd, content, offset)
    fchmodSync(fd, request.mode) // exactly: open's mode is filtered by the umask
    if (request.fsync) fsyncSync(fd)
  } catch (error) {
    closeSync(fd)
    removeQuietly(target) // e.g. ENOSPC: no partial file is left behind
    return ioFailure(id, error)
  }
  try {
    closeSync(fd)
  } catch (error) {
    removeQuietly(target)
    return ioFailure(id, error)
  }
  return { id, ok: true }
}

function ioFailure(id: number, error: unknown): WriterReply {
  const { message, code } = error as NodeJS.ErrnoException
  return code === undefined ? { id, ok: false, kind: 'io', message } : { id, ok: false, kind: 'io', message, code }
}

function removeQuietly(path: Buffer): void {
  try {
    unlinkSync(path)
  } catch {
    // Already gone; the caller removes its temp files on failure anyway.
  }
}

/**
 * Run `program --file-system -- path` (coreutils sync: syncfs(2)) and reply once it is done,
 * with the program's complaint if it failed. Started from this thread because starting a
 * process copies the page tables of the whole (large) process: milliseconds each time, better
 * spent here than on the main thread, which is busy renaming.
 */
function syncFileSystem({ id, program, path }: SyncRequest): void {
  execFile(program, ['--file-system', '--', path], { windowsHide: true }, (error, _stdout, stderr) => {
    const reply: WriterReply = error ? { id, ok: false, kind: 'io', message: String(stderr).trim() || error.message, code: 'EIO' } : { id, ok: true }
    port.postMessage(reply)
  })
}
