import { useMutation, useQuery } from '@tanstack/react-query'
import type { ExportFormat } from '../../../../shared/contract'
import { call } from '../../api/client'

export interface ExportChoice {
  sessionId: string
  format: ExportFormat
  withFiles: boolean
  /** Export only up to the end of this turn (opened from a turn). */
  throughTurn: number | null
  /** Show the local workspace folder as the workspace's name (and the home folder as `~`). */
  anonymizePath: boolean
}

const request = ({ sessionId, format, withFiles, throughTurn, anonymizePath }: ExportChoice) => ({
  sessionId,
  format,
  withFiles: format === 'json' && withFiles,
  anonymizePath,
  ...(throughTurn !== null ? { throughTurn } : {})
})

/** The secrets an export with these choices would carry: scanned once per choice, never cached for later. */
export function useExportReview(choice: ExportChoice, enabled: boolean) {
  return useQuery({
    queryKey: ['export-review', choice.sessionId, choice.format, choice.format === 'json' && choice.withFiles, choice.throughTurn, choice.anonymizePath],
    queryFn: () => call('export.review', request(choice)),
    enabled,
    gcTime: 0,
    staleTime: Infinity,
    retry: false
  })
}

/** Render the file with the reviewed findings hidden (except those kept), or with none hidden. */
export function useRenderExport() {
  return useMutation({
    mutationFn: ({ choice, redact, keep, token }: { choice: ExportChoice; redact: boolean; keep: string[]; token: string | undefined }) =>
      call('export.render', { ...request(choice), redact, keep, ...(redact && token ? { token } : {}) })
  })
}

/** The secrets a workspace's index page would carry (every session), scanned once per choice. */
export function useWorkspaceExportReview(workspaceId: number, anonymizePath: boolean, enabled: boolean) {
  return useQuery({
    queryKey: ['export-review-workspace', workspaceId, anonymizePath],
    queryFn: () => call('export.reviewWorkspace', { workspaceId, anonymizePath }),
    enabled,
    gcTime: 0,
    staleTime: Infinity,
    retry: false
  })
}

/** Render the workspace's index page with the reviewed findings hidden (except those kept), or with none hidden. */
export function useRenderWorkspaceExport() {
  return useMutation({
    mutationFn: ({ workspaceId, anonymizePath, redact, keep, token }: { workspaceId: number; anonymizePath: boolean; redact: boolean; keep: string[]; token: string | undefined }) =>
      call('export.renderWorkspace', { workspaceId, anonymizePath, redact, keep, ...(redact && token ? { token } : {}) })
  })
}
