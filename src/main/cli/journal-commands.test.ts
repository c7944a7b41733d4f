import { rmSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { agentWorkspace, type AgentWorkspace } from '../journal/testing/agent-workspace'
import { databaseOf } from '../store/raw-database'
import { runCli } from './main'

describe('retrace changes / diff / rewind / undo', () => {
  let ws: AgentWorkspace
  let out: string[]
  let err: string[]
  const io = { out: (text: string) => out.push(text), err: (text: string) => err.push(text) }
  const run = (...args: string[]) => runCli([...args, '--data-dir', ws.rt.store.dataDir], io, {})

  function setup(): void {
    ws = agentWorkspace({ 'notes.md': 'one\ntwo\n' })
    ws.agent.turn()
    ws.agent.write('notes.md', 'one\n2\nthree\n')
    ws.agent.write('todo.txt', 'ship it\n')
    out = []
    err = []
  }
  afterEach(() => ws.dispose())

  it('lists changes and prints a turn\'s diff of one file', async () => {
    setup()
    expect(await run('changes', ws.writer.id)).toBe(0)
    expect(out.join('\n')).toMatch(/1\s+modify\s+notes\.md\s+\+2 -1/)
    out = []
    expect(await run('diff', ws.writer.id, '--turn', '1', '--file', 'notes.md')).toBe(0)
    expect(out.join('\n')).toContain('-two\n+2\n+three')
    expect(await run('diff', ws.writer.id, '--turn', '1')).toBe(2)
  })

  it('previews with --dry-run without writing, applies with --yes, names the rewind in JSON, and undoes it', async () => {
    setup()
    expect(await run('rewind', ws.writer.id, '--turn', '1', '--dry-run')).toBe(0)
    expect(out.join('\n')).toMatch(/restore\s+file\s+notes\.md/)
    expect(ws.text('todo.txt')).toBe('ship it\n')
    out = []
    expect(await run('rewind', ws.writer.id, '--turn', '1')).toBe(2) // not a terminal and no --yes: refuse
    expect(err.join('\n')).toContain('Pass --yes')
    expect(ws.text('todo.txt')).toBe('ship it\n')
    out = []
    expect(await run('rewind', ws.writer.id, '--turn', '1', '--yes', '--json')).toBe(0)
    const { rewindId } = JSON.parse(out.join('\n')) as { rewindId: string }
    expect(ws.text('notes.md')).toBe('one\ntwo\n')
    expect(ws.text('todo.txt')).toBeNull()
    out = []
    expect(await run('undo', rewindId, '--yes')).toBe(0)
    expect(ws.text('todo.txt')).toBe('ship it\n')
    expect(await run('rewind', ws.writer.id, '--turn', '7', '--yes')).toBe(1)
    expect(await run('rewind', ws.writer.id, '--turn', '1', '--on-conflict', 'maybe', '--yes')).toBe(2)
  })

  it('leaves the files --leave names as they are, and refuses a path the preview does not hold', async () => {
    setup()
    expect(await run('rewind', ws.writer.id, '--turn', '1', '--leave', 'nope.txt', '--yes')).toBe(1)
    expect(err.join('\n')).toContain('--leave nope.txt: the preview has no such file')
    expect(ws.text('todo.txt')).toBe('ship it\n')
    out = []
    expect(await run('rewind', ws.writer.id, '--turn', '1', '--leave', 'todo.txt', '--yes', '--json')).toBe(0)
    const result = JSON.parse(out.join('\n')) as { rewindId: string; skipped: { path: string }[] }
    expect(ws.text('notes.md')).toBe('one\ntwo\n')
    expect(ws.text('todo.txt')).toBe('ship it\n')
    expect(result.skipped.map((item) => item.path)).toEqual(['todo.txt'])
    // Its undo puts back only what it changed.
    expect(await run('undo', result.rewindId, '--yes')).toBe(0)
    expect(ws.text('notes.md')).toBe('one\n2\nthree\n')
    expect(ws.text('todo.txt')).toBe('ship it\n')
  })

  it('forks with files and merges the branch back', async () => {
    setup()
    expect(await run('fork', ws.writer.id, '--turn', '1', '--name', 'Other idea', '--with-files', '--json')).toBe(0)
    const fork = JSON.parse(out.join('\n')) as { sessionId: string; rewind: { changed: unknown[] } }
    expect(fork.rewind.changed).toHaveLength(2)
    expect(ws.text('todo.txt')).toBeNull()
    ws.rt.recorder.resume(fork.sessionId).append({ role: 'user', content: 'a different approach' })
    out = []
    expect(await run('merge', fork.sessionId, '--mode', 'append')).toBe(0)
    expect(out.join('\n')).toContain(`Merged into ${ws.writer.id} (append)`)
    expect(await run('merge', fork.sessionId, '--mode', 'sideways')).toBe(2)
    err = []
    expect(await run('merge', fork.sessionId)).toBe(1) // nothing new since: refused, not copied again
    expect(err.join('\n')).toContain('already merged')
    out = []
    expect(await run('unmerge', fork.sessionId)).toBe(0)
    expect(out.join('\n')).toContain(`Undid the merge into ${ws.writer.id}: 2 messages removed`)
    expect(await run('merge', fork.sessionId)).toBe(0) // mergeable again
  })

  it('says "the merge was undone" to an unmerge after an unmerge, not that the branch was never merged (R40)', async () => {
    setup()
    expect(await run('fork', ws.writer.id, '--turn', '1', '--name', 'Other idea', '--json')).toBe(0)
    const fork = JSON.parse(out.join('\n')) as { sessionId: string }
    ws.rt.recorder.resume(fork.sessionId).append({ role: 'user', content: 'a different approach' })
    expect(await run('merge', fork.sessionId)).toBe(0)
    expect(await run('unmerge', fork.sessionId)).toBe(0)
    err = []
    expect(await run('unmerge', fork.sessionId)).toBe(1)
    expect(err.at(-1)).toMatch(/^retrace: The merge of "Other idea" into ".*" was undone \(\d{4}-\d\d-\d\d \d\d:\d\d\): there is no merge left to undo\. Merge the branch again to bring its messages back\.$/)
  })

  it('previews the workspace, kinds and modes, and writes a foreign file that runs code only with --allow-sensitive', async () => {
    ws = agentWorkspace({ '.envrc': 'export A=1\n', 'run.sh': '#!/bin/sh\n' })
    out = []
    err = []
    ws.agent.turn()
    ws.agent.write('.envrc', 'export A=2\n')
    ws.agent.write('run.sh', '#!/bin/sh\necho\n', 0o755)

    expect(await run('rewind', ws.writer.id, '--turn', '1', '--dry-run')).toBe(0)
    const preview = out.join('\n')
    expect(preview).toContain(`Workspace: ${ws.root}`)
    expect(preview).toMatch(/action\s+kind\s+path\s+mode\s+note/)
    expect(preview).toMatch(/restore\s+file\s+\.envrc\s+644\s+needs confirmation: runs code when a shell enters the folder \(direnv, mise\): \.envrc/)
    expect(preview).toMatch(/restore\s+file\s+run\.sh\s+755 → 644/)
    expect(preview).toContain('1 file that runs code or grants access comes from a history this computer did not record; it is left alone unless you pass --allow-sensitive: .envrc.')

    out = []
    expect(await run('rewind', ws.writer.id, '--turn', '1', '--yes')).toBe(0)
    expect(out.join('\n')).toContain('refused .envrc: not confirmed: it runs code when a shell enters the folder (direnv, mise): .envrc')
    expect(ws.text('.envrc')).toBe('export A=2\n')
    expect(ws.text('run.sh')).toBe('#!/bin/sh\n')

    out = []
    expect(await run('rewind', ws.writer.id, '--turn', '1', '--yes', '--allow-sensitive')).toBe(0)
    expect(out.join('\n')).toContain('--allow-sensitive: 1 file that runs code or grants access will be written, from a history this computer did not record: .envrc.')
    expect(out.join('\n')).toContain('1 changed, 0 skipped, 0 refused')
    expect(ws.text('.envrc')).toBe('export A=1\n')
  })

  it('lists every refused file with its reason, and never says every file matches when files were refused (R26)', async () => {
    ws = agentWorkspace({ 'big.txt': Buffer.alloc(400_000, 'L') })
    out = []
    err = []
    ws.agent.turn()
    ws.agent.write('big.txt', 'big after\n')
    const db = databaseOf(ws.rt.store)
    const bigHash = db.prepare("SELECT hash FROM blobs WHERE storage = 'file'").pluck().get() as string
    rmSync(ws.journal.blobs.filePath(bigHash)) // its snapshot is gone: refused, though it would be restored
    const scope = db.prepare('SELECT id FROM journal_scopes LIMIT 1').pluck().get() as number
    db.prepare("INSERT INTO journal_entries (scope_id, op, path, kind_before, hash_before, observed, created_at) VALUES (?, 'delete', ?, 'file', ?, 'tool', 0)").run(scope, Buffer.from('../escape.txt'), bigHash)

    for (const flags of [['--dry-run'], ['--yes']]) {
      out = []
      expect(await run('rewind', ws.writer.id, '--turn', '1', ...flags)).toBe(0)
      const printed = out.join('\n')
      expect(printed, flags[0]).not.toContain('every file already matches')
      expect(printed).toMatch(/refused\s+file\s+big\.txt\s+644\s+the saved snapshot of big\.txt is missing from the store/)
      expect(printed).toMatch(/refused\s+file\s+\.\.\/escape\.txt\s+→ 644\s+Refused the path "\.\.\/escape\.txt": it has a "\.\." segment/)
      expect(printed).toContain('Nothing will be written: all 2 files above are refused, for the reasons given.')
    }
    expect(ws.text('big.txt')).toBe('big after\n')

    out = []
    expect(await run('rewind', ws.writer.id, '--turn', '1', '--yes', '--json')).toBe(0)
    const answer = JSON.parse(out.join('\n')) as { nothingWritten: boolean; refused: { path: string; reason: string }[] }
    expect(answer.nothingWritten).toBe(true)
    expect(answer.refused.map((refusal) => refusal.path).sort()).toEqual(['../escape.txt', 'big.txt'])
  })

  it('does not claim every file matches when the only change left is refused (R26)', async () => {
    ws = agentWorkspace({ 'a.txt': 'old\n' })
    out = []
    err = []
    ws.agent.turn()
    ws.agent.write('a.txt', 'new\n')
    ws.user.write('a.txt', 'old\n') // already as the checkpoint left it
    const db = databaseOf(ws.rt.store)
    const scope = db.prepare('SELECT id FROM journal_scopes LIMIT 1').pluck().get() as number
    const blob = db.prepare('SELECT hash FROM blobs LIMIT 1').pluck().get() as string
    db.prepare("INSERT INTO journal_entries (scope_id, op, path, kind_before, hash_before, observed, created_at) VALUES (?, 'delete', ?, 'file', ?, 'tool', 0)").run(scope, Buffer.from('.hg/hgrc'), blob)
    expect(await run('rewind', ws.writer.id, '--turn', '1', '--dry-run')).toBe(0)
    const printed = out.join('\n')
    expect(printed).not.toContain('every file already matches')
    expect(printed).toMatch(/refused\s+file\s+\.hg\/hgrc\s+→ 644\s+Refused the path "\.hg\/hgrc": it names \.hg, version-control metadata that Retrace never touches/)
    expect(printed).toContain('Nothing will be written: the file above is refused, for the reason given.')
  })
})
