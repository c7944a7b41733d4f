import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { isRetraceError, retryableErrorCodes } from '../../../shared/contract'
import { useUiStore } from '../state/ui-store'

const MAX_RETRIES = 2

function shouldRetry(failureCount: number, error: Error): boolean {
  // A RetraceError is the server's considered answer; only a few codes can change on a retry.
  if (isRetraceError(error) && !retryableErrorCodes.has(error.code)) return false
  return failureCount < MAX_RETRIES
}

/** A refused token makes every call fail: replace the app with one clear explanation. */
function reportAuth(error: Error): void {
  if (isRetraceError(error) && error.code === 'UNAUTHORIZED') useUiStore.getState().setAuthProblem(error.message)
}

/**
 * Data changes only when the main process says so (data.changed), so nothing goes stale by
 * age; `networkMode: 'always'` because the "network" is IPC or loopback, which the browser's
 * online flag knows nothing about.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: reportAuth }),
    mutationCache: new MutationCache({ onError: reportAuth }),
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        networkMode: 'always',
        retry: shouldRetry,
        refetchOnWindowFocus: false
      },
      mutations: { networkMode: 'always', retry: false }
    }
  })
}
