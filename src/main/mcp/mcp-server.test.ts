import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync, rmSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI_FROM_SOURCE, CODEMIE_SESSION, codemieProject, HELLO_PY, HELLO_PY_COMMENTED, ROOT, startMcp, type McpSession } from './testing/mcp-process'

const READ_TOOLS = ['blame', 'diff', 'file_history', 'list_sessions', 'preview_rewind', 'preview_undo', 'read_turn', 'search_history']

// `retrace mcp` in a process of its own, spoken to by the MCP SDK's client over stdio, on a real
// Claude Code session (fixtures/claude-code/codemie) that the server imports itself.
describe('retrace mcp (an MCP server over stdio)', () => {
  let dir: string
  let folder: string
  let env: Record<string, string>
  let dataDir: string
  let mcp: McpSession | undefined
  const read = (name: string) => readFileSync(join(folder, name), 'utf8')
  const start = async (...args: string[]) => (mcp = await startMcp(['--data-dir', dataDir, ...args], env))

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'retrace-mcp-'))
    ;({ folder, env } = codemieProject(dir))
    dataDir = join(dir, 'data')
  })
  afterAll(async () => {
    await mcp?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('read-only by default: lists the reading tools only, searches, reads, previews, and refuses a rewind', async () => {
    const server = await start()
    const tools = (await server.client.listTools()).tools
    expect(tools.map((tool) => tool.name).sort()).toEqual(READ_TOOLS)
    const search = tools.find((tool) => tool.name === 'search_history')
    expect(Object.keys(search?.inputSchema.properties ?? {})).toEqual(['query', 'workspace', 'limit'])
    expect(search?.inputSchema.required).toEqual(['query'])
    expect(search?.outputSchema?.properties).toHaveProperty('hits')
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true)

    // Nothing imported yet: the search imports every agent's history first.
    const found = await server.tool('search_history', { query: 'one liner comment' })
    expect(found.isError).toBeFalsy()
    const hits = found.data.hits as { sessionId: string; turn: number; role: string; snippet: string }[]
    expect(hits.length).toBeGreaterThan(0)
    expect(hits[0]).toMatchObject({ turn: 2, role: 'user', snippet: 'update py with [one] [liner] [comment]' })
    const sessionId = hits[0]?.sessionId ?? ''
    expect(found.text).toContain(`turn 2 (user`)
    expect(found.text).toContain(sessionId)

    const listed = await server.tool('list_sessions', { workspace: folder })
    const sessions = listed.data.sessions as { id: string; title: string; turnCount: number; filesChanged: number; depth: number }[]
    expect(sessions.find((session) => session.id === sessionId)).toMatchObject({ turnCount: 3, filesChanged: 3, depth: 0 })
    expect(listed.text).toContain(`${folder}: ${sessions.length} sessions.`)
    expect(listed.text).toContain(sessionId)

    // A session by the agent's own id, or by the start of Retrace's.
    const turn = await server.tool('read_turn', { session: CODEMIE_SESSION, turn: 2 })
    expect(turn.data).toMatchObject({ sessionId, turn: 2, turnCount: 3, prompt: 'update py with one liner comment' })
    expect((turn.data.toolCalls as { name: string }[]).map((call) => call.name)).toEqual(['Read', 'Edit'])
    expect(turn.data.filesChanged).toEqual([{ path: 'hello.py', op: 'modify', from: null, added: 1, removed: 0, observed: 'tool' }])
    expect(turn.text).toContain('Answer:\n  Done! I\'ve added a one-liner comment to hello.py')
    const diff = await server.tool('diff', { session: sessionId.slice(0, 8), turn: 2, file: 'hello.py' })
    expect(diff.text).toContain('+# Simple hello world program')
    expect(diff.data).toMatchObject({ added: 1, removed: 0, path: 'hello.py' })

    const history = await server.tool('file_history', { file: join(folder, 'hello.py') })
    expect((history.data.items as { op: string; turn: number }[]).map((item) => [item.op, item.turn])).toEqual([
      ['create', 1],
      ['modify', 2]
    ])
    const blame = await server.tool('blame', { file: 'hello.py', workspace: folder })
    const lines = blame.data.lines as string[]
    expect(lines[2]).toBe('# Simple hello world program')
    const runs = blame.data.runs as { start: number; count: number; origin: number }[]
    const origins = blame.data.origins as { turn: number | null }[]
    expect(origins[runs.find((run) => run.start <= 3 && 3 < run.start + run.count)?.origin ?? -1]?.turn).toBe(2)

    const preview = await server.tool('preview_rewind', { session: sessionId, turn: 2 })
    expect(preview.data).toMatchObject({ root: folder, conflicts: [], needsConfirmation: [], canApply: false, sessionId, turn: 2 })
    expect((preview.data.items as { path: string; action: string }[]).map((item) => [item.path, item.action])).toEqual([['hello.py', 'restore']])
    expect(preview.text).toContain('This server is read-only')

    // Not listed, and not callable: nothing is written.
    const refused = await server.tool('rewind', { session: sessionId, turn: 2, token: preview.data.token })
    expect(refused.isError).toBe(true)
    expect(refused.text).toBe('MCP error -32602: Tool rewind not found')
    expect(read('hello.py')).toBe(HELLO_PY_COMMENTED)
    expect((await server.tool('undo', { rewind_id: '00000000-0000-4000-8000-000000000000' })).isError).toBe(true)

    // Bad arguments are the tool's error, in words.
    const missing = await server.tool('read_turn', { session: sessionId, turn: 9 })
    expect(missing).toMatchObject({ isError: true, text: '“create hello.py, md and js” has 3 turns; there is no turn 9.' })
    expect((await server.tool('read_turn', { session: 'no-such-session', turn: 1 })).text).toContain('No session with id no-such-session.')
    expect(server.stderr()).toContain('Retrace MCP server on stdio, read-only')
    await server.close()
  }, 120_000)

  it('offers sessions and turns as resources, with templates and a listing', async () => {
    const server = await start()
    const templates = (await server.client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)
    expect(templates).toEqual(['retrace://session/{session}', 'retrace://session/{session}/turn/{turn}'])
    const listed = (await server.client.listResources()).resources
    const session = listed.find((resource) => resource.name === 'create hello.py, md and js')
    expect(session?.uri).toMatch(/^retrace:\/\/session\/[0-9a-f-]{36}$/)
    const overview = await server.resource(session?.uri ?? '')
    expect(overview).toContain(`- Session: ${session?.uri.split('/').pop() ?? ''} (the agent's id: ${CODEMIE_SESSION})`)
    expect(overview).toContain(`2. update py with one liner comment — ${session?.uri ?? ''}/turn/2`)
    const turn = await server.resource(`retrace://session/${CODEMIE_SESSION}/turn/3`)
    expect(turn).toContain('Prompt:\n  delete js')
    expect(turn).toContain('and 1 shell command whose file changes were not captured')
    await expect(server.client.readResource({ uri: `retrace://session/${CODEMIE_SESSION}/turn/0` })).rejects.toThrow('whole number from 1')
    await server.close()
  }, 120_000)

  it('with --allow-rewind: rewinds after a preview, undoes, skips conflicts, refuses a stale preview, and never lets the model confirm a sensitive file (R23)', async () => {
    const server = await start('--allow-rewind')
    const tools = (await server.client.listTools()).tools
    expect(tools.map((tool) => tool.name).sort()).toEqual([...READ_TOOLS, 'rewind', 'undo'].sort())
    expect(tools.find((tool) => tool.name === 'rewind')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true })

    const preview = await server.tool('preview_rewind', { session: CODEMIE_SESSION, turn: 2 })
    expect(preview.data.canApply).toBe(true)
    expect(preview.text).toContain(`To apply exactly this preview: rewind {session: "${String(preview.data.sessionId)}", turn: 2, token: "${String(preview.data.token)}"}.`)
    const rewound = await server.tool('rewind', { session: CODEMIE_SESSION, turn: 2, token: preview.data.token })
    expect(rewound.isError).toBeFalsy()
    expect(rewound.data).toMatchObject({ changed: [{ path: 'hello.py', action: 'write' }], skipped: [], refused: [], nothingToDo: false })
    expect(read('hello.py')).toBe(HELLO_PY)
    const undone = await server.tool('undo', { rewind_id: rewound.data.rewindId })
    expect(undone.data).toMatchObject({ changed: [{ path: 'hello.py' }], undoOf: rewound.data.rewindId })
    expect(read('hello.py')).toBe(HELLO_PY_COMMENTED)

    // A file changed since the agent wrote it is a conflict: skipped unless on_conflict says otherwise.
    writeFileSync(join(folder, 'hello.py'), 'print("mine")\n')
    const conflicted = await server.tool('preview_rewind', { session: CODEMIE_SESSION, turn: 2 })
    expect(conflicted.data.conflicts).toEqual(['hello.py'])
    expect(conflicted.text).toContain('Skipped unless on_conflict is overwrite or keep-both')
    const skipped = await server.tool('rewind', { session: CODEMIE_SESSION, turn: 2, token: conflicted.data.token })
    expect(skipped.data).toMatchObject({ changed: [], skipped: [{ path: 'hello.py' }] })
    expect(read('hello.py')).toBe('print("mine")\n')
    // The disk changed since that preview: its token no longer applies.
    writeFileSync(join(folder, 'hello.py'), 'print("mine, again")\n')
    const stale = await server.tool('rewind', { session: CODEMIE_SESSION, turn: 2, token: conflicted.data.token, on_conflict: 'overwrite' })
    expect(stale.isError).toBe(true)
    expect(stale.text).toContain('hello.py changed since the preview was made; nothing was written.')
    expect(read('hello.py')).toBe('print("mine, again")\n')
    const fresh = await server.tool('preview_rewind', { session: CODEMIE_SESSION, turn: 2 })
    const kept = await server.tool('rewind', { session: CODEMIE_SESSION, turn: 2, token: fresh.data.token, on_conflict: 'keep-both' })
    expect(kept.data.changed).toEqual([
      { path: 'hello.py', pathId: 'aGVsbG8ucHk=', action: 'keep', keptAs: 'hello.py.retrace-kept' },
      { path: 'hello.py', pathId: 'aGVsbG8ucHk=', action: 'write', keptAs: null }
    ])
    expect(kept.text).toContain("keep hello.py (the user's version kept as hello.py.retrace-kept)")
    expect(read('hello.py')).toBe(HELLO_PY)
    expect(read('hello.py.retrace-kept')).toBe('print("mine, again")\n')

    // .envrc runs code and comes from a history this computer did not record: the model cannot confirm it, whatever it passes; the user can.
    const direnv = ((await server.tool('list_sessions', { workspace: folder })).data.sessions as { id: string; title: string }[]).find((session) => session.title.startsWith('set up direnv'))
    const sensitive = await server.tool('preview_rewind', { session: direnv?.id, turn: 2 })
    expect(sensitive.data.needsConfirmation).toEqual(['.envrc'])
    const refusals: unknown[] = []
    for (const attempt of [{ token: sensitive.data.token }, { token: sensitive.data.token, allow_sensitive: true }, { allow_sensitive: true, confirmed: ['LmVudnJj'] }]) {
      refusals.push((await server.tool('rewind', { session: direnv?.id, turn: 2, ...attempt })).data)
      expect(read('.envrc'), JSON.stringify(attempt)).toBe('export GREETING=hi\n')
    }
    const command = `retrace rewind ${String(sensitive.data.sessionId)} --turn 2 --allow-sensitive`
    for (const refused of refusals) {
      expect(refused).toMatchObject({ changed: [], refused: [{ path: '.envrc', reason: expect.stringContaining(`this server never confirms such a file; only the user can, in the Retrace app's preview or with \`${command}\``) as string }] })
    }
    expect(sensitive.text).toContain(`Needs the user's confirmation (runs code, grants access or configures an agent, from a history this computer did not record): .envrc. A rewind here leaves it alone; only the user can confirm it, in the Retrace app's preview or with \`${command}\`.`)
    expect(tools.find((tool) => tool.name === 'rewind')?.inputSchema.properties).not.toHaveProperty('allow_sensitive')
    expect(server.stderr()).toContain('rewind and undo allowed')
    await server.close()
  }, 120_000)

  it('writes nothing but the protocol on stdout, and ends cleanly when the client closes stdin', async () => {
    const child = spawn(process.execPath, [...CLI_FROM_SOURCE, 'mcp', '--data-dir', dataDir], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    const answered = new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        if (stdout.includes('"id":2')) resolve()
      })
    )
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })
    send({ method: 'notifications/initialized' })
    send({ id: 2, method: 'tools/call', params: { name: 'search_history', arguments: { query: 'delete js' } } })
    await answered
    const exited = once(child, 'exit')
    child.stdin.end()
    expect(await exited).toEqual([0, null])
    const lines = stdout.trimEnd().split('\n')
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([1, 2])
    expect(lines[1]).toContain('delete js')
  }, 60_000)

  it('answers a search from what is imported when the import takes too long, says so, and finds the rest once it is in', async () => {
    // Each file waits 2 s before it is read; the tool waits 300 ms.
    const slow = await startMcp(['--data-dir', join(dir, 'slow-data')], { ...env, RETRACE_IMPORT_FILE_DELAY_MS: '2000', RETRACE_MCP_IMPORT_WAIT_MS: '300' })
    mcp = slow
    const early = await slow.tool('search_history', { query: 'one liner comment' })
    expect(early.isError).toBeFalsy()
    expect(early.data.hits).toEqual([])
    expect(early.text).toContain('The import of what the agents wrote since is still running (waited 300 ms)')
    let later = early
    for (let attempt = 0; attempt < 60 && (later.data.hits as unknown[]).length === 0; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500))
      later = await slow.tool('search_history', { query: 'one liner comment' })
    }
    expect((later.data.hits as { turn: number }[])[0]?.turn).toBe(2)
    // Closed while the other files are still being imported: they stop, quietly.
    await slow.close()
    expect(slow.stderr()).not.toContain('failed')
  }, 120_000)
})
