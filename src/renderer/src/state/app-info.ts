import { useQuery } from '@tanstack/react-query'
import { call } from '../api/client'

/** What the app says of itself (version, binding, sources): read by several features. */
export function useAppInfo() {
  return useQuery({ queryKey: ['app', 'info'] as const, queryFn: () => call('app.info', {}) })
}
