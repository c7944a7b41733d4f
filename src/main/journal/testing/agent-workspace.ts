import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { tempDir, tempRuntime } from '../../testing/temp-runtime'

/**
 * A real workspace folder, a store, and an "agent" that changes files on disk the way a tool
 * does and records each change (content before and after) in the journal of its current turn.
 */
export function agentWorkspace(files: Record<string, string | Buffer> = {}) {
  const rt = tempRuntime()
  const dir = tempDir('retrace-ws-')
  const root = join(dir.path, 'project')
  mkdirSync(root)
  for (const [path, content] of Object.entries(files)) write(root, path, content)
  const workspaceId = rt.store.workspaces.open(root, 'project')
  const { journal, rewinds } = rt
  const writer = rt.recorder.startSession({ workspaceId, title: 'agent' })
  const session = () => rt.store.sessions.require(writer.id)

  const read = (path: string): Buffer | null => (existsSync(join(root, path)) ? readFileSync(join(root, path)) : null)
  const text = (path: string): string | null => read(path)?.toString() ?? null

  const agent = {
    /** Start the next turn (a user prompt). */
    turn(prompt = 'do something'): number {
      writer.append({ role: 'user', content: prompt })
      return writer.turn
    },
    write(path: string, content: string | Buffer, mode?: number): void {
      const before = read(path)
      const modeBefore = before ? lstatSync(join(root, path)).mode & 0o7777 : undefined
      write(root, path, content)
      if (mode !== undefined) chmodSync(join(root, path), mode)
      const modeAfter = lstatSync(join(root, path)).mode & 0o7777
      journal.recordToolChange(
        { workspaceId, sessionRowId: session().rowId, turn: writer.turn },
        { path, before, after: Buffer.from(content), ...(modeBefore !== undefined ? { modeBefore } : {}), modeAfter }
      )
    },
    remove(path: string): void {
      const before = read(path)
      const modeBefore = lstatSync(join(root, path)).mode & 0o7777
      rmSync(join(root, path))
      journal.recordToolChange({ workspaceId, sessionRowId: session().rowId, turn: writer.turn }, { path, before, after: null, modeBefore })
    }
  }

  return {
    rt,
    root,
    workspaceId,
    journal,
    rewinds,
    /** Rewinds of this store run under a test's faults or tuning. */
    rewindsUnder: (faults: Parameters<typeof rt.rewindsUnder>[0]) => rt.rewindsUnder(faults),
    /** Once every rewind has removed the files it set aside after returning. */
    settled: () => rt.settleRewinds(),
    writer,
    agent,
    read,
    text,
    /** A person editing the workspace outside the agent. */
    user: {
      write: (path: string, content: string | Buffer) => write(root, path, content),
      remove: (path: string) => rmSync(join(root, path)),
      removeFolder: (path: string) => rmdirSync(join(root, path))
    },
    dispose() {
      rt.dispose()
      dir.dispose()
    }
  }
}

function write(root: string, path: string, content: string | Buffer): void {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), content)
}

export type AgentWorkspace = ReturnType<typeof agentWorkspace>
