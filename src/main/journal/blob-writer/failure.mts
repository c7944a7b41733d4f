import type { FailureKind, WriterReply } from '../blob-writer-protocol.ts'

/** A failure with the kind the reply reports; plain errors (with a `code`) are `io`. */
export class Failure extends Error {
  readonly kind: FailureKind

  constructor(kind: FailureKind, message: string) {
    super(message)
    this.kind = kind
  }
}

/** The failed reply to request `id` (naming `job`, the lane's job it happened at, if any). */
export function failure(id: number, error: unknown, job?: number): WriterReply {
  const { message, code } = error as NodeJS.ErrnoException
  const kind = error instanceof Failure ? error.kind : 'io'
  return { id, ok: false, kind, message, ...(code === undefined ? {} : { code }), ...(job === undefined ? {} : { job }) }
}
