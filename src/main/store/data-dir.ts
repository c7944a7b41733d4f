import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/**
 * Where the user's store lives: `--data-dir` wins, then RETRACE_HOME, then the binding's
 * default (Electron's userData folder for the app, ~/.retrace for the CLI).
 */
export function resolveDataDir(options: { flag?: string | undefined; env?: NodeJS.ProcessEnv; fallback?: string }): string {
  const env = options.env ?? process.env
  const chosen = options.flag || env.RETRACE_HOME || options.fallback || join(homedir(), '.retrace')
  return resolve(chosen)
}
