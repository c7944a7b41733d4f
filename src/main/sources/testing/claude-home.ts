import { appendFileSync, cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { createHash, randomUUID } from 'node:crypto'
import { join, resolve } from 'node:path'
import { encodeProjectFolder } from '../claude-code/project-folder'

/** The repository's copies of real agent files (see fixtures/*\/PROVENANCE.txt). */
export const FIXTURES = resolve(__dirname, '../../../../fixtures')

/**
 * A Claude Code config folder (`CLAUDE_CONFIG_DIR`) for tests: real fixture sessions copied in,
 * or sessions written line by line in the documented shapes, with file-history backups.
 */
export class ClaudeHome {
  constructor(readonly root: string) {
    mkdirSync(join(root, 'projects'), { recursive: true })
  }

  /** Copy a folder of fixture session files in as the project folder of `cwd`. */
  addFixtureProject(fixtureDir: string, cwd: string): string {
    const folder = join(this.root, 'projects', encodeProjectFolder(cwd))
    cpSync(fixtureDir, folder, { recursive: true })
    return folder
  }

  session(cwd: string, sessionId: string = randomUUID()): ClaudeSessionFile {
    const folder = join(this.root, 'projects', encodeProjectFolder(cwd))
    mkdirSync(folder, { recursive: true })
    return new ClaudeSessionFile(join(folder, `${sessionId}.jsonl`), join(this.root, 'file-history', sessionId), sessionId, cwd)
  }
}

let clock = Date.UTC(2026, 0, 1)
/** Timestamps that grow across every session written, as they would on a real machine. */
function nextTimestamp(): string {
  clock += 1000
  return new Date(clock).toISOString()
}

/** Writes one Claude Code session file the way Claude Code does: one JSON object per line. */
export class ClaudeSessionFile {
  private last: string | null = null
  private counter = 0
  forkedFrom: { sessionId: string; messageUuid: string } | null = null

  constructor(
    readonly path: string,
    readonly backupDir: string,
    readonly sessionId: string,
    readonly cwd: string
  ) {
    writeFileSync(path, '', { flag: 'a' })
  }

  /**
   * Go back inside Claude Code (Esc Esc, `/rewind`): the next line hangs below `uuid`, as the
   * prompt that replaces a later one does.
   */
  rewindTo(uuid: string | null): void {
    this.last = uuid
  }

  /** The uuid the next line will hang below. */
  get tip(): string | null {
    return this.last
  }

  /** Append one raw line (no newline added when `partial`). */
  raw(text: string, partial = false): void {
    appendFileSync(this.path, partial ? text : `${text}\n`)
  }

  private line(fields: Record<string, unknown>): string {
    const uuid = (fields.uuid as string | undefined) ?? `${this.sessionId.slice(0, 8)}-${++this.counter}`
    const line = {
      parentUuid: this.last,
      isSidechain: false,
      userType: 'external',
      cwd: this.cwd,
      sessionId: this.sessionId,
      version: '2.1.39',
      timestamp: nextTimestamp(),
      uuid,
      ...(this.forkedFrom ? { forkedFrom: this.forkedFrom } : {}),
      ...fields
    }
    this.last = uuid
    this.raw(JSON.stringify(line))
    return uuid
  }

  /** A user prompt, preceded by its file-history snapshot (`backups`: path → content, null = absent). */
  prompt(text: string, backups: Record<string, string | null> = {}): string {
    const uuid = `${this.sessionId.slice(0, 8)}-${++this.counter}`
    const tracked: Record<string, unknown> = {}
    let version = 0
    for (const [path, content] of Object.entries(backups)) {
      version += 1
      let backupFileName: string | null = null
      if (content !== null) {
        backupFileName = `${createHash('sha256').update(join(this.cwd, path)).digest('hex').slice(0, 16)}@v${version}`
        mkdirSync(this.backupDir, { recursive: true })
        writeFileSync(join(this.backupDir, backupFileName), content)
      }
      tracked[path] = { backupFileName, version, backupTime: '2026-01-01T00:00:00.000Z' }
    }
    this.raw(JSON.stringify({ type: 'file-history-snapshot', messageId: uuid, isSnapshotUpdate: false, snapshot: { messageId: uuid, timestamp: '2026-01-01T00:00:00.000Z', trackedFileBackups: tracked } }))
    return this.line({ uuid, type: 'user', message: { role: 'user', content: text } })
  }

  /**
   * A `file-history-delta` line (Claude Code ≥ 2.1.220): the backup of one file, taken before the
   * turn opened by `promptUuid` first changed it, added to that turn's snapshot. `content` null:
   * the file did not exist.
   */
  delta(promptUuid: string, path: string, content: string | null, version = 1): void {
    let backupFileName: string | null = null
    if (content !== null) {
      backupFileName = `${createHash('sha256').update(join(this.cwd, path)).digest('hex').slice(0, 16)}@v${version}`
      mkdirSync(this.backupDir, { recursive: true })
      writeFileSync(join(this.backupDir, backupFileName), content)
    }
    const backup = { backupFileName, version, backupTime: '2026-01-01T00:00:01.000Z', realParentDir: join(this.cwd, path, '..') }
    this.raw(JSON.stringify({ type: 'file-history-delta', messageId: this.last, snapshotMessageId: promptUuid, trackingPath: path, backup, timestamp: '2026-01-01T00:00:01.000Z' }))
  }

  say(text: string): string {
    return this.line({ type: 'assistant', message: { id: `msg_${randomUUID()}`, model: 'claude-test', role: 'assistant', content: [{ type: 'text', text }], usage: { input_tokens: 10, output_tokens: 5 } } })
  }

  /** A tool call and its result line (`toolUseResult` as Claude Code writes it). */
  tool(name: string, input: Record<string, unknown>, toolUseResult: Record<string, unknown> | string, output = 'ok'): string {
    const id = `toolu_${randomUUID().replace(/-/g, '')}`
    this.line({ type: 'assistant', message: { id: `msg_${randomUUID()}`, model: 'claude-test', role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } })
    return this.line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output }] }, toolUseResult })
  }

  write(path: string, content: string, before: string | null): string {
    const filePath = join(this.cwd, path)
    return this.tool('Write', { file_path: filePath, content }, { type: before === null ? 'create' : 'update', filePath, content, structuredPatch: [], originalFile: before })
  }

  /** An Edit result; `withOriginal: false` is how older versions wrote it (only the patch). */
  edit(path: string, before: string, oldString: string, newString: string, withOriginal = true): string {
    const filePath = join(this.cwd, path)
    const beforeLines = before.split('\n')
    const index = beforeLines.findIndex((line) => line.includes(oldString))
    const after = beforeLines[index]?.replace(oldString, newString) ?? ''
    const structuredPatch = [{ oldStart: index + 1, oldLines: 1, newStart: index + 1, newLines: 1, lines: [`-${beforeLines[index]}`, `+${after}`] }]
    return this.tool('Edit', { file_path: filePath, old_string: oldString, new_string: newString }, {
      filePath,
      oldString,
      newString,
      ...(withOriginal ? { originalFile: before } : {}),
      structuredPatch,
      userModified: false,
      replaceAll: false
    })
  }

  /**
   * A Task call that ran a sub-agent, and the sub-agent's own file in `<session>/subagents/` as
   * Claude Code 2.1 lays it out (its lines are sidechain lines naming the parent session).
   */
  task(description: string, agentId: string, prompt = description): string {
    const folder = join(this.path.replace(/\.jsonl$/, ''), 'subagents')
    mkdirSync(folder, { recursive: true })
    const base = { isSidechain: true, agentId, userType: 'external', cwd: this.cwd, sessionId: this.sessionId, version: '2.1.39' }
    const first = { ...base, parentUuid: null, type: 'user', uuid: `${agentId}-1`, timestamp: nextTimestamp(), message: { role: 'user', content: prompt } }
    const answer = { ...base, parentUuid: `${agentId}-1`, type: 'assistant', uuid: `${agentId}-2`, timestamp: nextTimestamp(), message: { id: `msg_${randomUUID()}`, model: 'claude-test', role: 'assistant', content: [{ type: 'text', text: `done: ${description}` }] } }
    writeFileSync(join(folder, `agent-${agentId}.jsonl`), `${JSON.stringify(first)}\n${JSON.stringify(answer)}\n`)
    return this.tool('Task', { description, prompt, subagent_type: 'general-purpose' }, { status: 'completed', agentId, content: [{ type: 'text', text: `done: ${description}` }] })
  }

  bash(command: string, output = ''): string {
    return this.tool('Bash', { command }, { stdout: output, stderr: '', interrupted: false }, output)
  }

  /** A slash command as the user typed it, e.g. `/clear` (what a session started by `/clear` begins with). */
  command(name: string): string {
    return this.line({ type: 'user', message: { role: 'user', content: `<command-name>${name}</command-name>\n<command-message>${name.slice(1)}</command-message>\n<command-args></command-args>` } })
  }
}
