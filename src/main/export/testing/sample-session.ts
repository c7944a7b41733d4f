import { agentWorkspace, type AgentWorkspace } from '../../journal/testing/agent-workspace'
import { checkRelPath } from '../../fs/paths'

/** Bytes no UTF-8 decoder takes back losslessly: a binary file. */
export const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff, 0xfe])

/**
 * A session recorded the way an agent integration records one, through the real recorder and
 * file journal, touching every kind of thing an export carries: prompts, reasoning, tool calls
 * with nested input and an error, usage with cost, a source reference, a compaction, created,
 * modified, deleted, renamed and mode-changed files (text and binary), a turn with uncaptured
 * shell commands, and a branch below it. `text` is planted in a prompt, a tool input, a tool
 * result, a file name and a file's content (the XSS tests pass their corpus there).
 */
export function recordSampleSession(text = 'plain text'): AgentWorkspace & { branchId: string } {
  const ws = agentWorkspace({ 'README.md': '# Greeter\n\nSays hello.\n', 'old-name.txt': 'keep me\n' })
  const { writer, agent, rt } = ws
  let clock = Date.UTC(2026, 2, 10, 9, 0)
  const at = () => (clock += 7_000)

  writer.append({ role: 'system', content: 'You are a careful coding agent.', createdAt: at() })
  writer.append({ role: 'user', content: 'Add a greeting module with a test.', createdAt: at() })
  writer.append({ role: 'reasoning', content: 'A small module and one test will do.', createdAt: at() })
  writer.append({ role: 'tool_call', toolName: 'Write', toolCallId: 'call-1', toolInput: { file_path: 'src/greet.ts', content: 'export const greet = (name: string) => `Hello, ${name}!`\n' }, model: 'claude-sonnet-4-5', createdAt: at() })
  agent.write('src/greet.ts', 'export const greet = (name: string) => `Hello, ${name}!`\n')
  writer.append({ role: 'tool_result', toolName: 'Write', toolCallId: 'call-1', content: 'File created.', createdAt: at() })
  writer.append({
    role: 'assistant',
    content: 'I added `src/greet.ts`.\n\n- `greet(name)` returns a greeting.',
    model: 'claude-sonnet-4-5',
    usage: { inputTokens: 1200, outputTokens: 310, cacheReadTokens: 800, costUsd: 0.0123 },
    sourceRef: { file: '/home/dev/.claude/projects/greeter/session.jsonl', offset: 4096 },
    createdAt: at()
  })
  writer.closeTurn()

  writer.append({ role: 'user', content: `Now update the README and add the logo. ${text}`, createdAt: at() })
  writer.append({ role: 'tool_call', toolName: 'Bash', toolCallId: 'call-2', toolInput: { command: `npm test -- ${text}`, options: { cwd: '.', env: [text, 'CI=1'] } }, createdAt: at() })
  writer.append({ role: 'tool_result', toolName: 'Bash', toolCallId: 'call-2', content: `FAIL greet.test.ts\n${text}`, isError: true, createdAt: at() })
  agent.write('README.md', `# Greeter\n\nSays hello, politely.\n\n${text}\n`)
  agent.write('assets/logo.png', PNG_BYTES)
  agent.write(`notes/${fileNameOf(text)}.md`, `${text}\n`)
  agent.write('scripts/run.sh', '#!/bin/sh\necho hi\n', 0o755)
  agent.remove('old-name.txt')
  writer.append({ role: 'assistant', content: 'The README says it now; the logo is in assets/.', usage: { inputTokens: 900, outputTokens: 120 }, createdAt: at() })
  writer.closeTurn()
  rt.store.checkpoints.addUncaptured(rt.store.sessions.require(writer.id).rowId, 2, 2)

  writer.compact('Summary: a greeting module exists; README updated.', { createdAt: at() })
  writer.append({ role: 'user', content: 'Rename the script and make it plain.', createdAt: at() })
  recordRename(ws, 'scripts/run.sh', 'scripts/start.sh', '#!/bin/sh\necho hi\n')
  agent.write('scripts/start.sh', '#!/bin/sh\necho hi\n', 0o644)
  writer.append({ role: 'assistant', content: 'Renamed to scripts/start.sh and dropped the executable bit.', createdAt: at() })
  writer.closeTurn()

  const branch = rt.recorder.fork(writer.id, { atTurn: 2, title: 'Try a shorter README', createdAt: at() })
  branch.append({ role: 'user', content: 'Keep the README to one line.', createdAt: at() })
  branch.closeTurn()
  return { ...ws, branchId: branch.id }
}

/** A file name from arbitrary text: the journal refuses empty segments, `..` and trailing dots. */
function fileNameOf(text: string): string {
  const name = text.replace(/[\\]/g, '_').replace(/\/+/g, '/').replace(/^\/+|\/+$/g, '').replace(/[. ]+(\/|$)/g, '_$1') || 'plain'
  return name.split('/').map((segment) => segment.replace(/^\.+$/, '_') || '_').join('/')
}

/** A `mv` seen by a workspace scan: one rename entry (tools cannot report renames). */
function recordRename(ws: AgentWorkspace, from: string, to: string, content: string): void {
  const { hash, size } = ws.journal.blobs.putBuffer(Buffer.from(content))
  const version = { kind: 'file' as const, hash, size, mode: 0o755 }
  const session = ws.rt.store.sessions.require(ws.writer.id)
  ws.user.write(to, content)
  ws.user.remove(from)
  ws.journal.repo.addEntry({
    scopeId: ws.journal.turnScope(ws.workspaceId, session.rowId, ws.writer.turn),
    op: 'rename',
    path: checkRelPath(to),
    fromPath: checkRelPath(from),
    before: version,
    after: version,
    observed: 'scan'
  })
}
