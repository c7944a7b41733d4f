import { isRetraceError } from '../../../shared/contract'

/** The message to show a user for any thrown value; RetraceErrors already carry one. */
export function errorMessage(error: unknown): string {
  if (isRetraceError(error)) return error.message
  if (error instanceof Error && error.message) return error.message
  return 'Something went wrong. Try again; if it keeps happening, restart Retrace.'
}
