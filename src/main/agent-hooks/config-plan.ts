import { configDiff, readConfig, removeConfig, writeConfig, type ConfigText, type CreatedRecord } from './config-files'
import type { JsonPath } from './jsonc-edit'

/** One file an install or uninstall changes (or would, under --dry-run). */
export interface PlannedFile {
  agent: string
  file: string
  /** What changes in it, in words ("UserPromptSubmit hook added", "MCP server retrace removed"). */
  what: string[]
  before: string
  /** The new text; null when the file is removed. */
  after: string | null
  diff: string
  /** The copy of the file as it was (set once written; null for a new file). */
  backup?: string | null
}

/**
 * The edits of one agent's files, made on their text in memory first: several edits of one file
 * (Gemini CLI keeps hooks and MCP servers in the same settings.json) become one write, with one
 * backup. Nothing is written when any edit of the agent fails.
 */
export class ConfigPlan {
  private readonly files = new Map<string, { config: ConfigText; text: string; remove: boolean; blankAgain: boolean; what: string[]; createdFile: boolean; created: JsonPath[]; uncreated: JsonPath[] }>()

  constructor(
    readonly agent: string,
    private readonly record: CreatedRecord
  ) {}

  text(path: string): { file: string; text: string; exists: boolean } {
    const entry = this.entry(path)
    return { file: entry.config.file, text: entry.text, exists: entry.config.exists && !entry.remove }
  }

  edit(path: string, text: string, what: string, created: JsonPath[] = []): void {
    const entry = this.entry(path)
    if (!entry.config.exists && !entry.createdFile) entry.createdFile = true
    entry.text = text
    entry.remove = false
    entry.blankAgain = false
    entry.what.push(what)
    entry.created.push(...created)
  }

  /** The file goes (it was Retrace's, or Retrace created it and it holds nothing else now). */
  remove(path: string, what: string): void {
    const entry = this.entry(path)
    entry.remove = true
    entry.what.push(what)
  }

  /**
   * Uninstall took out the last of what was in the file: the file goes if Retrace created it (or
   * owns it, like Copilot's retrace.json); one that was blank before install gets its blank
   * bytes back. Else it stays, `{}`.
   */
  nothingLeft(path: string, options: { owned?: boolean } = {}): void {
    const entry = this.entry(path)
    if (this.createdFile(path) || options.owned) {
      this.remove(path, 'file removed (Retrace created it)')
      return
    }
    const blank = this.record.blankBefore(entry.config.file)
    if (blank === undefined) return
    this.edit(path, blank, 'file left blank again, as it was before install')
    entry.blankAgain = true
  }

  /** Paths created by an install that uninstall has now removed: forgotten once written. */
  uncreated(path: string, paths: JsonPath[]): void {
    this.entry(path).uncreated.push(...paths)
  }

  createdFile(path: string): boolean {
    return this.record.createdFile(this.entry(path).config.file)
  }

  createdPath(path: string, jsonPath: JsonPath): boolean {
    return this.record.createdPath(this.entry(path).config.file, jsonPath)
  }

  /** Whether Retrace ever noted anything about this file (an install with this data folder). */
  known(path: string): boolean {
    const file = this.entry(path).config.file
    return this.record.createdFile(file) || this.record.createdPath(file, ['hooks']) || this.record.createdPath(file, ['mcpServers'])
  }

  changes(): PlannedFile[] {
    return [...this.files.values()]
      .filter((entry) => entry.remove || entry.text !== entry.config.text)
      .map((entry) => {
        const after = entry.remove ? null : entry.text
        return { agent: this.agent, file: entry.config.file, what: entry.what, before: entry.config.text, after, diff: configDiff(entry.config.file, entry.config.text, after) }
      })
  }

  /** Write every changed file (backup first, atomically) and note what was created. */
  apply(now = Date.now(), whileWriting?: (file: string) => void): PlannedFile[] {
    const written = this.changes()
    for (const change of written) {
      const entry = [...this.files.values()].find((candidate) => candidate.config.file === change.file)
      if (!entry) continue
      if (entry.remove) {
        change.backup = entry.config.exists ? removeConfig(entry.config, now) : null
        this.record.forget(entry.config.file)
        continue
      }
      change.backup = writeConfig(entry.config, entry.text, now, whileWriting)
      if (entry.blankAgain) {
        this.record.forget(entry.config.file)
        continue
      }
      const blank = entry.config.exists && entry.config.text.trim() === '' ? entry.config.text : undefined
      this.record.note(entry.config.file, { file: entry.createdFile, paths: entry.created, blank })
      this.record.forget(entry.config.file, entry.uncreated)
    }
    return written
  }

  private entry(path: string) {
    let entry = this.files.get(path)
    if (!entry) {
      const config = readConfig(path)
      entry = { config, text: config.text, remove: false, blankAgain: false, what: [], createdFile: false, created: [], uncreated: [] }
      this.files.set(path, entry)
    }
    return entry
  }
}
