import { timingSafeEqual } from 'node:crypto'

/** What the web binding knows about a caller, taken from the request. */
export interface WebCaller {
  host: string | undefined
  origin: string | undefined
  token: string | undefined
}

/**
 * Checks that keep other web pages and other machines out: the Host header must name this
 * server on loopback (defeats DNS rebinding), a browser's Origin must be this server (defeats
 * cross-site requests), and the per-run token must match.
 */
export class RequestGuard {
  private readonly allowedHosts: Set<string>
  private readonly allowedOrigins: Set<string>
  private readonly token: Buffer

  constructor(port: number, token: string) {
    this.allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`])
    this.allowedOrigins = new Set([...this.allowedHosts].map((host) => `http://${host}`))
    this.token = Buffer.from(token)
  }

  /** Host and Origin only: for the static app files, which carry no token. */
  checkOrigin(caller: Pick<WebCaller, 'host' | 'origin'>): string | null {
    if (!caller.host || !this.allowedHosts.has(caller.host.toLowerCase())) {
      return `Requests must be addressed to this server on 127.0.0.1 (Host was ${JSON.stringify(caller.host ?? '')}).`
    }
    // Absent for same-origin GETs and for non-browser clients; a browser always sends it cross-site.
    if (caller.origin !== undefined && !this.allowedOrigins.has(caller.origin.toLowerCase())) {
      return `Requests from another site (${caller.origin}) are refused.`
    }
    return null
  }

  /** Host, Origin and token: for every contract call and the event stream. */
  check(caller: WebCaller): string | null {
    const refusal = this.checkOrigin(caller)
    if (refusal) return refusal
    if (!caller.token) return 'The access token is missing. Open the URL that `retrace serve` printed, including its ?token= part.'
    const given = Buffer.from(caller.token)
    if (given.length !== this.token.length || !timingSafeEqual(given, this.token)) {
      return 'The access token is wrong. Open the URL that `retrace serve` printed for this run.'
    }
    return null
  }
}
