import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

/** The programs an agent runs: an absolute Node and Retrace's own `bin/retrace.js`. */
export interface RetraceProgram {
  node: string
  script: string
  /** `--data-dir DIR` when the store is not the CLI's default, so hooks write where this Retrace reads. */
  dataDirArgs: string[]
}

/**
 * Retrace's npm package name: its own, so that `npx retrace` or an install by name never picks the
 * unrelated package called `retrace`. The command it installs is still `retrace`.
 */
export const PACKAGE_NAME = 'retrace-agent-history'

/** The folder holding Retrace's package.json: the installed package, never its `out/` build (which is rebuilt in place). */
export function packageRoot(from: string = __dirname): string {
  let dir = resolve(from)
  for (;;) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && existsSync(join(dir, 'bin', 'retrace.js')) && isRetraceManifest(manifest)) return dir
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`Retrace's package folder (with bin/retrace.js) was not found above ${from}.`)
    dir = parent
  }
}

function isRetraceManifest(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME
  } catch {
    return false
  }
}

/**
 * What the agents' settings will run. The Node is the one running now (`process.execPath`: under
 * npm scripts and bin/retrace.js it is the bundled Node 22), except inside Electron, whose binary
 * is not a Node: there the package's bundled Node is used. Both paths are absolute, so the hook
 * works from any folder and with any PATH.
 */
export function retraceProgram(dataDir: string, options: { root?: string; execPath?: string; electron?: boolean } = {}): RetraceProgram {
  const root = options.root ?? packageRoot()
  const electron = options.electron ?? process.versions.electron !== undefined
  const node = electron ? join(root, 'node_modules', 'node', 'bin', 'node') : (options.execPath ?? process.execPath)
  if (!existsSync(node)) throw new Error(`No Node to run hooks with was found at ${node}. Run \`retrace hooks install\` from a shell instead.`)
  const defaultDataDir = resolve(join(homedir(), '.retrace'))
  return { node, script: join(root, 'bin', 'retrace.js'), dataDirArgs: resolve(dataDir) === defaultDataDir ? [] : ['--data-dir', resolve(dataDir)] }
}

/** One word for a POSIX shell: quoted only when it needs to be. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/** The shell command of a hook: `<node> <retrace.js> checkpoint begin|end --hook AGENT [--data-dir DIR]`. */
export function hookCommand(program: RetraceProgram, phase: 'begin' | 'end', agent: string): string {
  return [program.node, program.script, 'checkpoint', phase, '--hook', agent, ...program.dataDirArgs].map(shellWord).join(' ')
}

/** The MCP server entry every agent gets: command and arguments, no shell. */
export function mcpServerCommand(program: RetraceProgram): { command: string; args: string[] } {
  return { command: program.node, args: [program.script, ...program.dataDirArgs, 'mcp'] }
}

/**
 * Whether a hook command is one of Retrace's checkpoint hooks (this install's or an older one's,
 * or one written by hand from the README): what install updates in place and uninstall removes.
 */
export function isRetraceHookCommand(command: unknown): boolean {
  return typeof command === 'string' && /retrace(\.js)?['"]?\s+checkpoint\s+(begin|end)\b/.test(command)
}

/** Whether an MCP server entry runs Retrace's `mcp` command. */
export function isRetraceMcpEntry(entry: unknown): boolean {
  if (!entry || typeof entry !== 'object') return false
  const { command, args } = entry as { command?: unknown; args?: unknown }
  const words = [command, ...(Array.isArray(args) ? (args as unknown[]) : [])].filter((word): word is string => typeof word === 'string')
  return words.some((word) => /(^|[\\/])retrace(\.js)?$/.test(word)) && words.includes('mcp')
}
