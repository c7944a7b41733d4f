import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** How an MCP client starts this server: a program and its arguments (the shape clients' configurations take). */
export interface McpServerCommand {
  command: string
  args: string[]
}

/**
 * The command line that starts `retrace mcp` from this installation, for registering the server
 * with an agent: an absolute Node 22 (this process's when it is one, else the bundled `node`
 * package's, as bin/retrace.js finds it), the absolute bin/retrace.js, `mcp`, and the options
 * given (`--data-dir` so that the agent reads the store the caller uses, when not the default).
 * It imports nothing of Retrace's own, so an installer or a test can load it alone.
 */
export function mcpServerCommand(options: { dataDir?: string; allowRewind?: boolean } = {}): McpServerCommand {
  const root = installationRoot(__dirname)
  const args = [join(root, 'bin', 'retrace.js'), 'mcp']
  if (options.allowRewind) args.push('--allow-rewind')
  if (options.dataDir !== undefined) args.push('--data-dir', options.dataDir)
  return { command: node22(root), args }
}

/** The folder holding bin/retrace.js and package.json, above this module (source, build or chunk alike). */
function installationRoot(from: string): string {
  for (let folder = from; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'bin', 'retrace.js')) && existsSync(join(folder, 'package.json'))) return folder
    if (dirname(folder) === folder) throw new Error(`Cannot find Retrace's bin/retrace.js above ${from}.`)
  }
}

function node22(root: string): string {
  const plainNode = process.versions.electron === undefined
  if (plainNode && Number(process.versions.node.split('.')[0]) >= 22) return process.execPath
  try {
    return createRequire(join(root, 'package.json')).resolve('node/bin/node')
  } catch {
    throw new Error(`Retrace's MCP server needs Node 22 or newer; run \`npm install\` in ${root} (its \`node\` package provides one).`)
  }
}
