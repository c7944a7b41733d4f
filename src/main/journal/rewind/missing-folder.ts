import { statSync } from 'node:fs'
import { RetraceError } from '../../../shared/contract'

/**
 * A rewind writes into the workspace folder; when nothing is there (the folder was deleted or
 * moved, or the history was copied from another computer) it is refused before any plan, rather
 * than re-creating the folder's path or failing on its first file. The history stays browsable:
 * the error says what the user can still do.
 */
export function refuseMissingFolder(path: string, sessionId?: string): void {
  try {
    if (statSync(path).isDirectory()) return
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return // unreadable, not missing: the rewind's own checks say so
  }
  const id = sessionId ?? 'SESSION'
  throw new RetraceError(
    'PATH_NOT_FOUND',
    `The folder of this workspace, ${path}, is not on this computer (deleted, moved, or the history comes from another one), so no file can be rewound there; nothing was written. ` +
      `The history stays browsable, and each turn's file versions readable (\`retrace diff ${id} --turn N --file PATH\`). ` +
      `You can fork the conversation without its files (Fork, without "with files"; \`retrace fork ${id} --turn N\`), or write the files this rewind would restore into another folder: ` +
      `\`retrace export ${id} --format json --with-files --no-redact --out FILE\`, \`retrace import-json FILE --workspace OTHER-FOLDER\`, then rewind the imported session there with --on-conflict overwrite. ` +
      'If the folder was moved, open it at its new place.'
  )
}
