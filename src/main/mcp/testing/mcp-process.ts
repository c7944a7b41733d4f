import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { ClaudeHome, FIXTURES } from '../../sources/testing/claude-home'

export const ROOT = resolve(__dirname, '../../../..')
/** The `retrace` command from source, in a process of its own (see src/main/testing/cli-process.ts). */
export const CLI_FROM_SOURCE = [join(ROOT, 'node_modules/vite-node/dist/cli.mjs'), join(ROOT, 'src/main/testing/cli-process.ts'), '--']

/** The agent's own id of the real Claude Code session in fixtures/claude-code/codemie. */
export const CODEMIE_SESSION = '4c2ddfdc-b619-4525-8d03-1950fb1b0257'

/** hello.py as the codemie session's turn 1 wrote it, and as its turn 2 left it. */
export const HELLO_PY = '#!/usr/bin/env python3\n\ndef main():\n    print("Hello, World!")\n\nif __name__ == "__main__":\n    main()\n'
export const HELLO_PY_COMMENTED = HELLO_PY.replace('def main():', '# Simple hello world program\ndef main():')

/**
 * A project folder as the real Claude Code session of fixtures/claude-code/codemie left it
 * (hello.py with turn 2's comment, hello.md; turn 3 removed hello.js with `rm`), that session in
 * a Claude Code config folder recorded in this folder, and a second session, written line by line
 * in Claude Code's format, whose turn 2 changed `.envrc` (a file that runs code).
 */
export function codemieProject(dir: string): { folder: string; claude: string; env: Record<string, string> } {
  const folder = join(dir, 'private')
  mkdirSync(folder)
  writeFileSync(join(folder, 'hello.py'), HELLO_PY_COMMENTED)
  writeFileSync(join(folder, 'hello.md'), '# Hello\n\nThis is a simple hello file.\n\n## Purpose\n\nDemonstrates basic markdown formatting.\n\n## Example\n\n```bash\necho "Hello, World!"\n```\n')
  writeFileSync(join(folder, '.envrc'), 'export GREETING=hi\n')
  const home = new ClaudeHome(join(dir, 'claude'))
  const project = home.addFixtureProject(join(FIXTURES, 'claude-code/codemie/-tmp-private'), folder)
  for (const name of readdirSync(project).filter((entry) => entry.endsWith('.jsonl'))) {
    writeFileSync(join(project, name), readFileSync(join(project, name), 'utf8').replaceAll('/tmp/private', folder))
  }
  const direnv = home.session(folder)
  direnv.prompt('set up direnv with a greeting')
  direnv.write('.envrc', 'export GREETING=hello\n', null)
  direnv.say('Added .envrc.')
  direnv.prompt('make the greeting shorter')
  direnv.write('.envrc', 'export GREETING=hi\n', 'export GREETING=hello\n')
  direnv.say('Changed it to hi.')
  const env = { HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: home.root, CODEX_HOME: join(dir, 'codex'), RETRACE_HOME: '', TZ: 'UTC' }
  return { folder, claude: home.root, env }
}

export interface McpSession {
  client: Client
  /** What the server wrote on stderr so far. */
  stderr(): string
  /** The server process's id. */
  pid: number
  /** A tool call's result (an error result too: `isError`). */
  tool(name: string, args?: Record<string, unknown>): Promise<CallToolResult & { text: string; data: Record<string, unknown> }>
  /** A resource's text. */
  resource(uri: string): Promise<string>
  close(): Promise<void>
}

/** `retrace mcp ARGS` from source, spoken to with the SDK's own client over its stdin and stdout. */
export async function startMcp(args: string[], env: Record<string, string>): Promise<McpSession> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined))
  const transport = new StdioClientTransport({ command: process.execPath, args: [...CLI_FROM_SOURCE, 'mcp', ...args], cwd: ROOT, env: { ...inherited, ...env }, stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const client = new Client({ name: 'retrace-test', version: '1.0.0' })
  await client.connect(transport)
  return {
    client,
    stderr: () => stderr,
    pid: transport.pid ?? 0,
    tool: async (name, toolArgs = {}) => {
      const result = (await client.callTool({ name, arguments: toolArgs })) as CallToolResult
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')
      return { ...result, text, data: result.structuredContent ?? {} }
    },
    resource: async (uri) => (await client.readResource({ uri })).contents.map((part) => ('text' in part ? part.text : '')).join('\n'),
    close: () => client.close()
  }
}
