/** The scan was cancelled: the worker answers `cancelled`, not `error`. */
export class Cancelled extends Error {}

/** A failure that stops the scan, naming the path it happened at (null: none in particular). */
export class Fault extends Error {
  key: string | null
  /** The system's error code (ENOSPC…), so the parent can tell a full store from a file it could not read. */
  code: string | undefined
  constructor(key: string | null, error: unknown) {
    super(messageOf(error))
    this.key = key
    this.code = codeOf(error)
  }
}

export const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException | null)?.code ?? ''
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
