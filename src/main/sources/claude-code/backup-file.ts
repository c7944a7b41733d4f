import { constants } from 'node:fs'
import { lstat, open, type FileHandle } from 'node:fs/promises'

/**
 * Open one of Claude Code's file backups (`file-history/<session>/<name>`) for reading, without
 * following a link. Claude Code writes backups as plain files; a symbolic link there (a copied or
 * unpacked config folder is enough) would make Retrace copy whatever it points to, a private key
 * say, into its store and, through a rewind, into a workspace. O_NOFOLLOW refuses the link in the
 * open itself, so it cannot be swapped in between a check and the read; O_NONBLOCK keeps a FIFO
 * from blocking the open. Returns null when the backup is gone (Claude Code purges old ones).
 */
export async function openBackupFile(path: string): Promise<{ handle: FileHandle } | { refused: string } | null> {
  const noFollow = constants.O_NOFOLLOW as number | undefined
  try {
    // Without O_NOFOLLOW (Windows), a link is refused by looking first.
    if (noFollow === undefined && (await lstat(path)).isSymbolicLink()) return { refused: linkReason(path) }
    const handle = await open(path, constants.O_RDONLY | (noFollow ?? 0) | ((constants.O_NONBLOCK as number | undefined) ?? 0))
    if ((await handle.stat()).isFile()) return { handle }
    await handle.close()
    return { refused: `file-history backup ${path} is not a plain file: not read (Claude Code writes its backups as plain files)` }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    // ELOOP (EMLINK on FreeBSD): the last part of the path is a symbolic link.
    if (code === 'ELOOP' || code === 'EMLINK') return { refused: linkReason(path) }
    return { refused: `file-history backup ${path} could not be read (${code ?? String(error)}): not copied` }
  }
}

function linkReason(path: string): string {
  return `file-history backup ${path} is a symbolic link: not followed, not read (Claude Code writes its backups as plain files; a link could point at any file, a key say)`
}
