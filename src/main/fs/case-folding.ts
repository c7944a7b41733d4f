import { lstatSync, readdirSync } from 'node:fs'
import { basename, dirname } from 'node:path'

/** The names differ by case only where an ASCII letter is: swap the case of every one. */
function swapAsciiCase(name: Buffer): Buffer {
  const swapped = Buffer.from(name)
  for (let i = 0; i < swapped.length; i++) {
    const byte = swapped[i] as number
    if ((byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)) swapped[i] = byte ^ 0x20
  }
  return swapped
}

const hasAsciiLetter = (name: Buffer): boolean => !swapAsciiCase(name).equals(name)

/** Whether `a` and `b` name the same inode: true, false, or null when `a` is gone (nothing proven). */
function sameEntry(a: Buffer, b: Buffer): boolean | null {
  let first
  try {
    first = lstatSync(a, { bigint: true })
  } catch {
    return null
  }
  try {
    const second = lstatSync(b, { bigint: true })
    return first.dev === second.dev && first.ino === second.ino
  } catch {
    return false // only one spelling exists: the file system tells case apart
  }
}

/**
 * Whether the file system holding `folder` ignores case (macOS's and Windows' usual disks, a FAT
 * or exFAT stick, an ext4 folder with casefold), found by looking an existing name up with its
 * case swapped: the same inode means one name. Probed with a name inside the folder, else with
 * the folder's own name (a missing folder: its nearest existing parent); where no name has a
 * letter, the platform's usual disk answers. Reads only.
 */
export function foldsCase(folder: Buffer): boolean {
  let names: Buffer[] = []
  try {
    names = readdirSync(folder, { encoding: 'buffer' })
  } catch (error) {
    // A folder a rewind is about to create is on the disk of the nearest one that exists.
    const parent = Buffer.from(dirname(folder.toString('latin1')), 'latin1')
    const code = (error as NodeJS.ErrnoException).code
    if ((code === 'ENOENT' || code === 'ENOTDIR') && !parent.equals(folder)) return foldsCase(parent)
  }
  for (const name of names) {
    if (!hasAsciiLetter(name)) continue
    const proof = sameEntry(Buffer.concat([folder, Buffer.from('/'), name]), Buffer.concat([folder, Buffer.from('/'), swapAsciiCase(name)]))
    if (proof !== null) return proof
  }
  const own = Buffer.from(basename(folder.toString('latin1')), 'latin1')
  if (hasAsciiLetter(own)) {
    const parent = Buffer.from(dirname(folder.toString('latin1')), 'latin1')
    const proof = sameEntry(folder, Buffer.concat([parent, Buffer.from('/'), swapAsciiCase(own)]))
    if (proof !== null) return proof
  }
  return process.platform === 'darwin' || process.platform === 'win32'
}
