import { z } from 'zod'

/**
 * Stable error codes that cross the process boundary. The renderer and the CLI branch on these,
 * never on message text.
 */
export const errorCodes = [
  'VALIDATION',
  'UNAUTHORIZED',
  'UNKNOWN_METHOD',
  'NOT_FOUND',
  'PATH_NOT_FOUND',
  'NOT_A_DIRECTORY',
  'PATH_UNREADABLE',
  'STORE_NEWER_VERSION',
  'STORE_CORRUPT',
  'STORE_BUSY',
  'BLOB_UNAVAILABLE',
  'CONFLICT',
  'IO_ERROR',
  'CANCELLED',
  'UNSUPPORTED',
  'INTERNAL'
] as const
export const ErrorCodeSchema = z.enum(errorCodes)
export type ErrorCode = z.infer<typeof ErrorCodeSchema>

/** Codes where the same call may succeed later (a lock released, a transient fault); every other code is final. */
export const retryableErrorCodes: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['STORE_BUSY', 'INTERNAL'])

export const RpcErrorSchema = z.object({ code: ErrorCodeSchema, message: z.string() })
export type RpcError = z.infer<typeof RpcErrorSchema>

/** What every binding returns for every call: data, or an error a user can act on. */
export type RpcResult<T> = { ok: true; data: T } | { ok: false; error: RpcError }

/**
 * An error with a stable code and a message written for the person who will read it
 * (say what happened and what to do). Thrown by services, rebuilt by the renderer client.
 */
export class RetraceError extends Error {
  override readonly name = 'RetraceError'
  constructor(
    readonly code: ErrorCode,
    message: string
  ) {
    super(message)
  }

  toJSON(): RpcError {
    return { code: this.code, message: this.message }
  }
}

export function isRetraceError(value: unknown): value is RetraceError {
  return value instanceof RetraceError
}
