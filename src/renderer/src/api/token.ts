const STORAGE_KEY = 'retrace.token'
const TOKEN_PARAM = 'token'

/**
 * The web binding's per-run token. `retrace serve` prints a URL with `?token=…`; we keep the
 * token in sessionStorage (so a reload still works) and take it out of the address bar so it
 * is not left in history, bookmarks or screenshots.
 */
export function takeWebToken(): string | null {
  const url = new URL(window.location.href)
  const fromUrl = url.searchParams.get(TOKEN_PARAM)
  if (fromUrl) {
    try {
      sessionStorage.setItem(STORAGE_KEY, fromUrl)
    } catch {
      // Storage can be disabled; the token still works for this page load.
    }
    url.searchParams.delete(TOKEN_PARAM)
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`)
    return fromUrl
  }
  try {
    return sessionStorage.getItem(STORAGE_KEY)
  } catch {
    return null
  }
}
