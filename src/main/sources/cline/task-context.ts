import type { MessageRecord, SourceRecord } from '../records'
import type { KnownContents, ToolCall } from './file-edits'
import { fileKey } from './saved-content'
import type { FileRow } from './ui-messages'

/** What the records of one task are built with: the records so far, and what pairs and dates them. */
export class TaskContext {
  readonly records: SourceRecord[] = []
  /** Tool calls not answered yet, oldest first (XML calls are answered by name, native ones by id). */
  readonly unanswered: ToolCall[] = []
  cwd: string | undefined
  /** `<model>` of the latest environment details (Roo Code, Kilo Code). */
  envModel: string | undefined
  time: number | undefined
  firstPrompt: string | undefined
  /** File contents known at this point of the task (attached files, reads, whole writes, applied edits). */
  readonly knownFiles: KnownContents = new FileContents(() => this.cwd)
  /** Cline 4: the user's text is not wrapped in `<task>` / `<user_message>`; every text is a prompt. */
  plainPrompts = false
  private counter = 0

  constructor(
    readonly taskId: string,
    readonly fallbackModel: string | undefined,
    private readonly fileRows: FileRow[] = []
  ) {}

  /**
   * The UI's row for this write of the file, taken so the file's next write gets the next one:
   * true when the UI showed it as a new file, false as an edit, undefined when the UI has no row.
   */
  takeFileRow(path: string): boolean | undefined {
    const key = fileKey(this.cwd, path)
    const at = this.fileRows.findIndex((row) => fileKey(this.cwd, row.path) === key)
    return at === -1 ? undefined : this.fileRows.splice(at, 1)[0]?.created
  }

  uid(index: number): string {
    this.counter += 1
    return `${this.taskId}#${index}.${this.counter}`
  }

  message(index: number, fields: Pick<MessageRecord, 'role' | 'content'> & Partial<MessageRecord>): MessageRecord {
    const record: MessageRecord = {
      kind: 'message',
      offset: index,
      uid: this.uid(index),
      parentUid: null,
      agentId: null,
      startsTurn: false,
      ...(this.time !== undefined ? { createdAt: this.time } : {}),
      ...fields
    }
    this.records.push(record)
    return record
  }

  get model(): string | undefined {
    return this.envModel ?? this.fallbackModel
  }

  /** The answered call: the one with this id, else the latest unanswered call of this tool. */
  answer(id: string | null, name: string | null): ToolCall | undefined {
    let at = -1
    for (let index = this.unanswered.length - 1; index >= 0 && at === -1; index -= 1) {
      const call = this.unanswered[index] as ToolCall
      if (id !== null ? call.id === id : call.name === name) at = index
    }
    return at === -1 ? undefined : this.unanswered.splice(at, 1)[0]
  }
}


/** Contents by file, whatever form of its path the agent used (fileKey). */
class FileContents implements KnownContents {
  private readonly contents = new Map<string, string>()

  constructor(private readonly cwd: () => string | undefined) {}

  get(path: string): string | undefined {
    return this.contents.get(fileKey(this.cwd(), path))
  }

  has(path: string): boolean {
    return this.contents.has(fileKey(this.cwd(), path))
  }

  set(path: string, content: string): void {
    this.contents.set(fileKey(this.cwd(), path), content)
  }

  delete(path: string): void {
    this.contents.delete(fileKey(this.cwd(), path))
  }
}
