import { closeSync, fsync, fsyncSync, openSync, writeSync } from 'node:fs'
import { promisify } from 'node:util'

// Durable writes by path: what the blob store and a rewind's intent log and folders need to
// survive a crash. (A rewind's many temp files are made durable in batches: see rewind/.)

/** fsync(2) of a descriptor, in the thread pool. */
export const fsyncAsync = promisify(fsync)

/** Write, fsync and close a file. */
export function writeDurably(path: string | Buffer, content: Buffer, mode = 0o644): void {
  const fd = openSync(path, 'w', mode)
  try {
    let offset = 0
    while (offset < content.length) offset += writeSync(fd, content, offset)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** fsync a file or a directory by path (a directory's fsync makes a rename in it durable). */
export function fsyncPath(path: string | Buffer): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** `fsyncPath` in the thread pool. */
export async function fsyncPathAsync(path: string | Buffer): Promise<void> {
  const fd = openSync(path, 'r')
  try {
    await fsyncAsync(fd)
  } finally {
    closeSync(fd)
  }
}
