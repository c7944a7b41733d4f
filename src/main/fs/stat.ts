import { closeSync, openSync, readSync, statSync, type Stats } from 'node:fs'

/** The path's stat (links followed), or null if it cannot be had: discovery asks of paths that may not exist. */
export function statOrNull(path: string): Stats | null {
  try {
    return statSync(path)
  } catch {
    return null
  }
}

export function isDirectory(path: string): boolean {
  return statOrNull(path)?.isDirectory() ?? false
}

export function isFile(path: string): boolean {
  return statOrNull(path)?.isFile() ?? false
}

/** A file's first `bytes` as UTF-8 text, or '' if it cannot be read (discovery peeks at what a file records). */
export function readHeadText(path: string, bytes: number): string {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    const buffer = Buffer.alloc(bytes)
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0)).toString('utf8')
  } catch {
    return ''
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
