import { existsSync } from 'node:fs'

/** Debian's Chromium (never a downloaded browser: `npx playwright install` cannot work here). */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium'].filter((p): p is string => !!p)
  return candidates.find((p) => existsSync(p)) ?? '/usr/lib/chromium/chromium'
}

/** Headless, and quiet: without the background-networking flags Chromium keeps dialing out. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync'
]
