import { afterEach, describe, expect, it } from 'vitest'
import type { Blame } from '../../../shared/contract'
import { checkRelPath } from '../../fs/paths'
import { agentWorkspace, type AgentWorkspace } from '../testing/agent-workspace'
import { TurnCapture } from '../turn-capture'
import { FileBlame } from './file-blame'

/** Each line with a short label of its origin: "turn <title> <turn>", "outside", "earlier", "disk"… */
function labelled(blame: Blame): string[] {
  const labels: string[] = []
  for (const run of blame.runs) {
    const origin = blame.origins[run.origin]
    const label = origin?.kind === 'turn' ? `${origin.sessionTitle} ${origin.turn}` : (origin?.kind ?? '?')
    for (let i = 0; i < run.count; i += 1) labels.push(`${blame.lines[run.start - 1 + i]} ← ${label}`)
  }
  return labels
}

describe('blame of a workspace file from the journal', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())
  const blame = (path: string) => new FileBlame(ws.rt.store, ws.journal.blobs, ws.workspaceId).run(checkRelPath(path))

  it('names the session and turn of each line across two sources, a change outside any turn, and disk edits since', () => {
    ws = agentWorkspace({ 'src/app.ts': 'a\nb\nc\n' })
    ws.agent.turn('add d')
    ws.agent.write('src/app.ts', 'a\nb\nc\nd\n')
    ws.writer.closeTurn()
    ws.user.write('src/app.ts', 'a\nB\nc\nd\n') // a person, between turns: no turn records it
    const codex = ws.rt.recorder.startSession({ workspaceId: ws.workspaceId, source: 'codex', title: 'codex run' })
    codex.append({ role: 'user', content: 'fix c please' })
    const before = Buffer.from(ws.text('src/app.ts') ?? '')
    ws.user.write('src/app.ts', 'a\nB\nC\nd\n')
    codex.recordFileChange({ path: 'src/app.ts', before, after: Buffer.from('a\nB\nC\nd\n') })
    codex.closeTurn()
    ws.user.write('src/app.ts', 'a\nB\nC\nd\ne\n') // after the last journaled version

    const result = blame('src/app.ts')
    expect(labelled(result)).toEqual(['a ← earlier', 'B ← outside', 'C ← codex run 1', 'd ← agent 1', 'e ← disk'])
    expect(result.disk).toBe('changed')
    expect(result.versions).toBe(5)
    const codexOrigin = result.origins.find((origin) => origin.kind === 'turn' && origin.sessionTitle === 'codex run')
    expect(codexOrigin).toMatchObject({ kind: 'turn', source: 'codex', turn: 1, prompt: 'fix c please', sessionId: codex.id, observed: 'tool' })
    expect(codexOrigin?.createdAt).toBeGreaterThan(0)
    // The change outside any turn is dated by the turn that first saw it, and names it.
    expect(result.origins.find((origin) => origin.kind === 'outside')).toMatchObject({ sessionId: codex.id, turn: 1, prompt: null })
  })

  it('blames what workspace scans captured on their turns, and an edit between scanned turns outside any turn', async () => {
    ws = agentWorkspace({ 'gen.txt': 'one\ntwo\nthree\n' })
    const capture = new TurnCapture(ws.rt.store, ws.journal)
    const hooks = ws.rt.recorder.startSession({ workspaceId: ws.workspaceId, source: 'hooks', title: 'hooked agent' })
    const rowId = ws.rt.store.sessions.require(hooks.id).rowId
    hooks.append({ role: 'user', content: 'regenerate' })
    await capture.begin(ws.workspaceId)
    ws.user.write('gen.txt', 'one\nTWO\nthree\n') // a shell command of the turn: only the scan sees it
    await capture.end(ws.workspaceId, { sessionRowId: rowId, turn: 1 })
    hooks.closeTurn()
    ws.user.write('gen.txt', 'one\nTWO\nthree\nby hand\n') // between turns
    hooks.append({ role: 'user', content: 'again' })
    await capture.begin(ws.workspaceId)
    ws.user.write('gen.txt', 'ONE\nTWO\nthree\nby hand\n')
    await capture.end(ws.workspaceId, { sessionRowId: rowId, turn: 2 })
    hooks.closeTurn()
    // The second turn's scan journaled "by hand" as already there before it: no turn wrote it.
    const result = blame('gen.txt')
    expect(labelled(result)).toEqual(['ONE ← hooked agent 2', 'TWO ← hooked agent 1', 'three ← earlier', 'by hand ← outside'])
    expect(result.origins.find((origin) => origin.kind === 'turn')).toMatchObject({ source: 'hooks', observed: 'scan', prompt: 'regenerate' })
  })

  it('orders sessions by when their turns happened, not by when they were imported', () => {
    ws = agentWorkspace()
    const dayAgo = Date.now() - 86_400_000
    ws.agent.turn('extend it') // recorded first, but happened after the imported session below
    const version = (text: string) => ({ kind: 'file' as const, hash: ws.journal.blobs.putBuffer(Buffer.from(text)).hash, size: text.length, mode: 0o644 })
    ws.rt.store.journal.addEntry({
      scopeId: ws.journal.turnScope(ws.workspaceId, ws.rt.store.sessions.require(ws.writer.id).rowId, 1),
      op: 'modify',
      path: checkRelPath('a.txt'),
      fromPath: null,
      before: version('old\n'),
      after: version('old\nnew\n'),
      observed: 'tool'
    })
    ws.user.write('a.txt', 'old\nnew\n')
    const imported = ws.rt.recorder.startSession({ workspaceId: ws.workspaceId, source: 'claude-code', title: 'imported', createdAt: dayAgo })
    imported.append({ role: 'user', content: 'start a.txt', createdAt: dayAgo })
    imported.recordFileChange({ path: 'a.txt', before: null, after: Buffer.from('old\n') })
    imported.closeTurn()
    expect(labelled(blame('a.txt'))).toEqual(['old ← imported 1', 'new ← agent 1'])
  })

  it('blames a file deleted and made again on the turn that made it again, not on the first one', () => {
    ws = agentWorkspace()
    ws.agent.turn('make it')
    ws.agent.write('x.txt', 'one\ntwo\n')
    ws.agent.turn('drop it')
    ws.agent.remove('x.txt')
    ws.agent.turn('again')
    ws.agent.write('x.txt', 'two\nthree\n')
    const result = blame('x.txt')
    expect(labelled(result)).toEqual(['two ← agent 3', 'three ← agent 3'])
    expect(result.disk).toBe('same')
  })

  it('shows a deleted file as its last content, with the deletion named', () => {
    ws = agentWorkspace()
    ws.agent.turn('make it')
    ws.agent.write('gone.txt', 'kept line\n')
    ws.agent.turn('delete it')
    ws.agent.remove('gone.txt')
    const result = blame('gone.txt')
    expect(result.disk).toBe('absent')
    expect(labelled(result)).toEqual(['kept line ← agent 1'])
    expect(result.origins[result.deletedBy ?? -1]).toMatchObject({ kind: 'turn', turn: 2 })
  })

  it('follows a rename the journal recorded back to the old name’s lines', () => {
    ws = agentWorkspace()
    ws.agent.turn('write old')
    ws.agent.write('old.ts', 'first\nsecond\n')
    ws.agent.turn('rename and edit')
    const version = ws.rt.store.journal.pathHistory(ws.workspaceId, checkRelPath('old.ts'))[0]?.after ?? null
    const scope = ws.journal.turnScope(ws.workspaceId, ws.rt.store.sessions.require(ws.writer.id).rowId, 2)
    ws.user.remove('old.ts')
    ws.user.write('new.ts', 'first\nsecond\n')
    ws.journal.repo.addEntry({ scopeId: scope, op: 'rename', path: checkRelPath('new.ts'), fromPath: checkRelPath('old.ts'), before: version, after: version, observed: 'scan' })
    ws.agent.write('new.ts', 'first\nsecond\nthird\n')
    expect(labelled(blame('new.ts'))).toEqual(['first ← agent 1', 'second ← agent 1', 'third ← agent 2'])
  })

  it('gives a rewound line back to the turn that wrote it', async () => {
    ws = agentWorkspace({ 'f.txt': 'base\n' })
    ws.agent.turn('one')
    ws.agent.write('f.txt', 'base\nfrom one\n')
    ws.agent.turn('two')
    ws.agent.write('f.txt', 'base\nfrom two\n')
    await ws.rewinds.applyTurn(ws.writer.id, 2)
    await ws.settled()
    expect(ws.text('f.txt')).toBe('base\nfrom one\n')
    expect(labelled(blame('f.txt'))).toEqual(['base ← earlier', 'from one ← agent 1'])
  })

  it('refuses a binary file, and says when no turn ever touched a file', () => {
    ws = agentWorkspace({ 'untouched.txt': 'hello\n' })
    ws.agent.turn('draw')
    ws.agent.write('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]))
    expect(() => blame('logo.png')).toThrow(/logo\.png is a binary file/)
    expect(() => blame('untouched.txt')).toThrow(/no recorded change to untouched\.txt/)
  })
})
