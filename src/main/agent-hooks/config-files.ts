import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createTwoFilesPatch } from 'diff'
import { DIFF_TIMEOUT_MS, MAX_EDIT_LENGTH, TOO_MANY_CHANGES } from '../journal/line-diff/bounds.mts'
import { readConfigFile } from '../fs/config-file.mts'
import { backupConfigFile, configFileTarget, removeConfigFile, replaceConfigFile } from '../fs/config-file-write'
import type { JsonPath } from './jsonc-edit'

/** One agent settings file as read: its text ('' when absent) and where it really lives. */
export interface ConfigText {
  /** The path written (a link followed to its target: a dotfiles repository stays the place). */
  file: string
  exists: boolean
  text: string
  /** The bytes read (null: no file): a write goes ahead only while the file still holds them. */
  bytes: Buffer | null
}

/**
 * The settings file at `path`, read only if it is a small regular file (fs/config-file.mts):
 * a FIFO, a device, a folder, a huge file or a link to nothing throws a sentence naming it, and
 * nothing blocks.
 */
export function readConfig(path: string): ConfigText {
  const file = configFileTarget(path)
  // Read through `path`, so that a refusal names the file the agent reads (not /dev/zero).
  const bytes = readConfigFile(path)
  return bytes === null ? { file, exists: false, text: '', bytes } : { file, exists: true, text: bytes.toString('utf8'), bytes }
}

/**
 * Replace the file with `text`: the file as it was is first copied beside it
 * (`<name>.retrace-backup-<time>`, same mode), then the new text is written beside it and
 * renamed over it, so no reader ever sees half a file — provided nobody wrote the file since it
 * was read (fs/config-file-write.ts: else ConfigFileChanged, and the backup is taken back). The
 * mode is kept (0600 for a new file); missing folders are made. Returns the backup's path, or
 * null when the file is new.
 */
export function writeConfig(config: ConfigText, text: string, now = Date.now(), whileWriting?: (file: string) => void): string | null {
  mkdirSync(dirname(config.file), { recursive: true })
  const backup = config.bytes === null ? null : backupConfigFile(config.file, config.bytes, now)
  try {
    replaceConfigFile(config.file, text, config.bytes, whileWriting)
  } catch (error) {
    if (backup) unlinkSync(backup)
    throw error
  }
  return backup
}

/** Remove a file Retrace created and emptied again (a backup of it is kept all the same). */
export function removeConfig(config: ConfigText, now = Date.now()): string {
  const bytes = config.bytes ?? Buffer.alloc(0)
  const backup = backupConfigFile(config.file, bytes, now)
  try {
    removeConfigFile(config.file, bytes)
  } catch (error) {
    unlinkSync(backup)
    throw error
  }
  return backup
}

/**
 * A unified diff of the change, for --dry-run. Bounded like every line diff (settings files are
 * read up to 4 MB, enough for a rewrite jsdiff would take minutes over): past the bounds it says so.
 */
export function configDiff(file: string, before: string, after: string | null): string {
  const patch = createTwoFilesPatch(file, file, before, after ?? '', undefined, after === null ? '(removed)' : undefined, { context: 2, maxEditLength: MAX_EDIT_LENGTH, timeout: DIFF_TIMEOUT_MS })
  return patch ?? `--- ${file}\n+++ ${file}\n(${TOO_MANY_CHANGES}: ${before.length} characters before, ${(after ?? '').length} after)\n`
}

/**
 * What Retrace created in agents' files (whole files, and objects or arrays inside them), kept in
 * its data folder: uninstall removes those only, so a file ends byte for byte as it was before
 * install — an empty `"hooks": {}` the user had stays, one Retrace made goes.
 */
export class CreatedRecord {
  private readonly path: string
  private entries: Record<string, RecordEntry>

  constructor(dataDir: string) {
    this.path = join(dataDir, 'agent-config-created.json')
    this.entries = readRecord(this.path)
  }

  createdFile(file: string): boolean {
    return this.entries[file]?.file === true
  }

  createdPath(file: string, path: JsonPath): boolean {
    return (this.entries[file]?.paths ?? []).some((created) => created.length === path.length && created.every((key, index) => key === path[index]))
  }

  /**
   * The text (white space only) the file held when Retrace first wrote into it, if it was blank:
   * no JSON document, so uninstall gives back those bytes rather than the `{}` left once
   * Retrace's keys are out.
   */
  blankBefore(file: string): string | undefined {
    return this.entries[file]?.blank
  }

  note(file: string, change: { file?: boolean; paths?: JsonPath[]; blank?: string }): void {
    const entry = (this.entries[file] ??= { file: false, paths: [] })
    if (change.file) entry.file = true
    if (change.blank !== undefined) entry.blank ??= change.blank
    for (const path of change.paths ?? []) if (!this.createdPath(file, path)) entry.paths.push(path)
  }

  forget(file: string, paths?: JsonPath[]): void {
    const entry = this.entries[file]
    if (!entry) return
    if (!paths) delete this.entries[file]
    else entry.paths = entry.paths.filter((created) => !paths.some((path) => path.length === created.length && path.every((key, index) => key === created[index])))
  }

  save(): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 })
    writeFileSync(this.path, `${JSON.stringify(this.entries, null, 2)}\n`, { mode: 0o600 })
  }
}

interface RecordEntry {
  file: boolean
  paths: JsonPath[]
  blank?: string
}

function readRecord(path: string): Record<string, RecordEntry> {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, RecordEntry>) : {}
  } catch {
    return {}
  }
}
