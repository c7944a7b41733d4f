// What `npm start` does next, decided from facts about this machine (scripts/start.mts gathers
// them and acts). Kept apart so that the decision is tested without a window or a download.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

export interface StartFacts {
  /** The Electron binary, where Electron's own lookup finds it on disk; null when it is not there. */
  electronBinary: string | null
  /** Fetching the binary: not tried yet, or tried (and, if the binary is still missing, why). */
  fetch: 'untried' | { failed: string | null }
  /** Whether a window can open here (electron cannot start without a display). */
  hasDisplay: boolean
}

export type StartStep =
  | { do: 'electron'; binary: string }
  | { do: 'fetch' }
  | { do: 'web'; why: string }

/** Open the window if there is a binary and a display; fetch the binary once; else serve the app in the browser. */
export function nextStep(facts: StartFacts): StartStep {
  if (!facts.hasDisplay) return { do: 'web', why: 'there is no display here for the window (neither DISPLAY nor WAYLAND_DISPLAY is set)' }
  if (facts.electronBinary !== null) return { do: 'electron', binary: facts.electronBinary }
  if (facts.fetch === 'untried') return { do: 'fetch' }
  const why = facts.fetch.failed ?? 'it was fetched, but no binary is where Electron looks for it'
  return { do: 'web', why: `the Electron binary for the window could not be downloaded (${why})` }
}

/** The one sentence `npm start` says before it serves the app in the browser. */
export function webModeNotice(why: string): string {
  return `Retrace: ${why}, so Retrace is served in your browser instead, at the address below.`
}

/**
 * The Electron binary as Electron 45's own `index.js` finds it, without requiring that file
 * (requiring it starts a download when the binary is missing): `path.txt`, written once the
 * binary is extracted, names it inside `dist/`, or inside ELECTRON_OVERRIDE_DIST_PATH.
 */
export function electronBinary(electronDir: string, env: NodeJS.ProcessEnv): string | null {
  const pathFile = join(electronDir, 'path.txt')
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : ''
  const binary = env.ELECTRON_OVERRIDE_DIST_PATH ? join(env.ELECTRON_OVERRIDE_DIST_PATH, executable || 'electron') : executable ? join(electronDir, 'dist', executable) : null
  return binary !== null && existsSync(binary) ? binary : null
}

/** macOS and Windows always have one; elsewhere a window needs an X or Wayland display. */
export function hasDisplay(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean {
  if (platform === 'darwin' || platform === 'win32') return true
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY)
}

/**
 * How to open `url` in the default browser, or null where there is none to open: `$BROWSER`
 * when set (`none` for never), else the system's opener, on a desktop only.
 */
export function browserOpener(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, url: string): { command: string; args: string[] } | null {
  if (env.BROWSER) return env.BROWSER === 'none' ? null : { command: env.BROWSER, args: [url] }
  if (!hasDisplay(platform, env)) return null
  if (platform === 'darwin') return { command: 'open', args: [url] }
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '', url] }
  return { command: 'xdg-open', args: [url] }
}

/** The build's entry points: the window's, the CLI's, the preload's and the page's. */
const BUILT = ['out/main/index.js', 'out/main/cli.js', 'out/preload/index.cjs', 'out/renderer/index.html']

/** Whether `out/` is missing or older than a source file or the build's configuration. */
export function buildIsStale(root: string): boolean {
  let built = Infinity
  for (const file of BUILT) {
    const path = join(root, file)
    if (!existsSync(path)) return true
    built = Math.min(built, statSync(path).mtimeMs)
  }
  return newestChange(join(root, 'src')) > built || statSync(join(root, 'electron.vite.config.ts')).mtimeMs > built
}

function newestChange(folder: string): number {
  let newest = statSync(folder).mtimeMs
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs)
  }
  return newest
}
