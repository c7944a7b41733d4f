import type { MessageRecord, SourceRecord } from '../records'
import type { ToolCall } from './file-edits'

/** What the records of one task are built with: the records so far, and what pairs and dates them. */
export class TaskContext {
  readonly records: SourceRecord[] = []
  /** Tool calls not answered yet, oldest first (XML calls are answered by name, native ones by id). */
  readonly unanswered: ToolCall[] = []
  /** Paths written earlier in the task: a later `write_to_file` of one is not a new file. */
  readonly writtenPaths = new Set<string>()
  cwd: string | undefined
  /** `<model>` of the latest environment details (Roo Code, Kilo Code). */
  envModel: string | undefined
  time: number | undefined
  firstPrompt: string | undefined
  /** File contents known at this point of the task (attached files, whole writes, applied edits), by path. */
  readonly knownFiles = new Map<string, string>()
  /** Cline 4: the user's text is not wrapped in `<task>` / `<user_message>`; every text is a prompt. */
  plainPrompts = false
  private counter = 0

  constructor(
    readonly taskId: string,
    readonly fallbackModel: string | undefined,
    readonly createdPaths: Set<string>
  ) {}

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

