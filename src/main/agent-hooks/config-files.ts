import { mkdirSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { createTwoFilesPatch } from 'diff'
import { readConfigFile } from '../fs/config-file.mts'
import type { JsonPath } from './jsonc-edit'

/** One agent settings file as read: its text ('' when absent) and where it really lives. */
export interface ConfigText {
  /** The path written (a link followed to its target: a dotfiles repository stays the place). */
  file: string
  exists: boolean
  text: string
}

/**
 * The settings file at `path`, read only if it is a small regular file (fs/config-file.mts):
 * a FIFO, a device, a folder or a huge file throws a sentence naming it, and nothing blocks.
 */
export function readConfig(path: string): ConfigText {
  const file = followLink(path)
  // Read through `path`, so that a refusal names the file the agent reads (not /dev/zero).
  const bytes = readConfigFile(path)
  return bytes === null ? { file, exists: false, text: '' } : { file, exists: true, text: bytes.toString('utf8') }
}

/**
 * Replace the file with `text`: the file as it was is first copied beside it
 * (`<name>.retrace-backup-<time>`, same mode), then the new text is written beside it and
 * renamed over it, so no reader ever sees half a file. The mode is kept (0600 for a new file);
 * missing folders are made. Returns the backup's path, or null when the file is new.
 */
export function writeConfig(config: ConfigText, text: string, now = Date.now()): string | null {
  mkdirSync(dirname(config.file), { recursive: true })
  let backup: string | null = null
  const mode = config.exists ? statSync(config.file).mode & 0o777 : 0o600
  if (config.exists) {
    backup = join(dirname(config.file), `${basename(config.file)}.retrace-backup-${new Date(now).toISOString().replace(/[:.]/g, '-')}`)
    writeFileSync(backup, readFileSync(config.file), { flag: 'wx', mode })
  }
  const temp = join(dirname(config.file), `.${basename(config.file)}.retrace-${process.pid}`)
  writeFileSync(temp, text, { mode })
  renameSync(temp, config.file)
  return backup
}

/** Remove a file Retrace created and emptied again (a backup of it is kept all the same). */
export function removeConfig(config: ConfigText, now = Date.now()): string {
  const backup = join(dirname(config.file), `${basename(config.file)}.retrace-backup-${new Date(now).toISOString().replace(/[:.]/g, '-')}`)
  writeFileSync(backup, readFileSync(config.file), { flag: 'wx', mode: statSync(config.file).mode & 0o777 })
  unlinkSync(config.file)
  return backup
}

/** A unified diff of the change, for --dry-run. */
export function configDiff(file: string, before: string, after: string | null): string {
  return createTwoFilesPatch(file, file, before, after ?? '', undefined, after === null ? '(removed)' : undefined, { context: 2 })
}

function followLink(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

/**
 * What Retrace created in agents' files (whole files, and objects or arrays inside them), kept in
 * its data folder: uninstall removes those only, so a file ends byte for byte as it was before
 * install — an empty `"hooks": {}` the user had stays, one Retrace made goes.
 */
export class CreatedRecord {
  private readonly path: string
  private entries: Record<string, { file: boolean; paths: JsonPath[] }>

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

  note(file: string, change: { file?: boolean; paths?: JsonPath[] }): void {
    const entry = (this.entries[file] ??= { file: false, paths: [] })
    if (change.file) entry.file = true
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

function readRecord(path: string): Record<string, { file: boolean; paths: JsonPath[] }> {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, { file: boolean; paths: JsonPath[] }>) : {}
  } catch {
    return {}
  }
}
