/** Where the user is, as kept in `location.hash` so a reload (or Back) returns there. */
export interface Place {
  workspaceId: number | null
  sessionId: string | null
}

const PATTERN = /^#\/w\/(\d+)(?:\/s\/([^/]+))?$/

export function parsePlace(hash: string): Place {
  const match = PATTERN.exec(hash)
  if (!match?.[1]) return { workspaceId: null, sessionId: null }
  const workspaceId = Number(match[1])
  if (!Number.isSafeInteger(workspaceId) || workspaceId <= 0) return { workspaceId: null, sessionId: null }
  let sessionId: string | null = null
  if (match[2]) {
    try {
      sessionId = decodeURIComponent(match[2])
    } catch {
      sessionId = null
    }
  }
  return { workspaceId, sessionId }
}

export function formatPlace(place: Place): string {
  if (place.workspaceId === null) return ''
  const base = `#/w/${place.workspaceId}`
  return place.sessionId ? `${base}/s/${encodeURIComponent(place.sessionId)}` : base
}
