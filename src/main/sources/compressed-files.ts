import { createHash } from 'node:crypto'
import { createReadStream, readFileSync } from 'node:fs'
import { createZstdDecompress, zstdDecompressSync } from 'node:zlib'
import { zstdIncompleteness } from './zstd-frames'

/**
 * History files an agent has compressed whole with zstd (Codex's idle rollouts:
 * `rollout-….jsonl.zst`, docs/formats.md §2.2). Such a file is read as its decoded bytes: import
 * offsets and the hashes that identify what was read are over the decoded bytes, so a file
 * that changes form (plain → compressed → plain) is recognised as the same content.
 */
export const COMPRESSED_SUFFIX = '.zst'

export function isCompressed(path: string): boolean {
  return path.endsWith(COMPRESSED_SUFFIX)
}

/** Why a compressed file could not be read, naming it (the import reports it, and goes on with the others). */
export class CompressedFileError extends Error {
  constructor(path: string, cause: unknown) {
    super(`compressed file ${path} could not be decoded (zstd): ${cause instanceof Error ? cause.message : String(cause)}`)
  }
}

/**
 * The decoded bytes of a compressed file, a piece at a time (Node's own zstd: Node ≥ 22.15; the
 * project pins Node 22.23, and Electron 45 runs Node 24 or later).
 * `whole`: the file is checked to be whole first (zstd-frames.ts); a head alone need not be.
 */
export async function* decodedPieces(path: string, whole = true): AsyncGenerator<Buffer> {
  const problem = whole ? zstdIncompleteness(path) : null
  if (problem) throw new CompressedFileError(path, problem)
  const decoder = createZstdDecompress()
  const input = createReadStream(path)
  input.on('error', (error) => decoder.destroy(error))
  input.pipe(decoder)
  try {
    for await (const piece of decoder) yield piece as Buffer
  } catch (error) {
    throw new CompressedFileError(path, error)
  } finally {
    input.destroy()
    decoder.destroy()
  }
}

/** The first `bytes` decoded bytes (fewer if the content is shorter); only that much is decoded. */
export async function decodedHead(path: string, bytes: number): Promise<Buffer> {
  const pieces: Buffer[] = []
  let length = 0
  for await (const piece of decodedPieces(path, false)) {
    pieces.push(piece)
    length += piece.length
    if (length >= bytes) break
  }
  return Buffer.concat(pieces).subarray(0, bytes)
}

/**
 * What identifies the decoded content up to `offset`: sha256 of its first min(headBytes, offset)
 * bytes and of the min(tailBytes, offset) bytes before `offset`, and its decoded size. Synchronous
 * (import planning is) and whole: it runs only when a compressed file appears in place of one
 * imported before, or changed, which Codex does once per rollout at most.
 */
export function decodedIdentity(path: string, offset: number, headBytes: number, tailBytes: number): { head: string; tail: string; size: number } {
  let content: Buffer
  try {
    const problem = zstdIncompleteness(path)
    if (problem) throw new Error(problem)
    content = zstdDecompressSync(readFileSync(path))
  } catch (error) {
    throw new CompressedFileError(path, error)
  }
  const end = Math.min(offset, content.length)
  return {
    head: sha256(content.subarray(0, Math.min(headBytes, end))),
    tail: sha256(content.subarray(end - Math.min(tailBytes, end), end)),
    size: content.length
  }
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}
