/**
 * What the foreign-database reader process (foreign-db-reader.mts) is asked and answers. Plain
 * data only: it crosses a process boundary (structured clone over the IPC channel).
 */

/** One table read: which columns, which rows, in what order. No SQL text is ever sent. */
export interface TableRead {
  /** Columns wanted; those the table lacks are left out of its rows (the caller decides what a missing one means). */
  columns: readonly string[]
  /** Without any of these the table is not the agent's: no row is read, and the answer says which are missing. */
  required?: readonly string[]
  /** Only rows whose column equals the value (a condition on a column the table lacks is dropped). */
  where?: Readonly<Record<string, string | number>>
  /** Row order, by these columns where the table has them (`rowid` is allowed). */
  orderBy?: readonly string[]
  /** Distinct rows only. */
  distinct?: boolean
  /**
   * Only rows whose column starts with one of these texts (ANDed with `where`): a key-value table
   * holding many kinds of rows, each kind under a key prefix (Cursor's `cursorDiskKV`). No prefix
   * listed: no row. A condition on a column the table lacks is dropped, like `where`.
   */
  prefixes?: Readonly<Record<string, readonly string[]>>
}

export interface ReaderRequest {
  /** The agent's database (its `-wal` beside it is read too); never opened, only copied. */
  path: string
  /** An empty folder the reader copies the database into; the caller removes it. */
  copyDir: string
  /** Tables by name. */
  tables: Readonly<Record<string, TableRead>>
  /** The reader ends itself this long after it starts, even if its caller is gone. */
  deadlineMs: number
}

export type TableResult =
  /** No table of that name. */
  | { state: 'absent' }
  /** A table without a required column: not read. `columns` are the ones it has. */
  | { state: 'lacks'; missing: string[]; columns: string[] }
  /** The query failed (an error of SQLite, e.g. a corrupt page): the message says why. */
  | { state: 'unreadable'; message: string }
  /** `columns`: the wanted columns the table has; each row has exactly these. */
  | { state: 'read'; columns: string[]; rows: Record<string, unknown>[] }

export type ReaderReply =
  | { ok: true; tables: Record<string, TableResult> }
  /** The database is not one Retrace reads: the reason names the object (a view, a trigger…). */
  | { ok: false; kind: 'refused'; reason: string }
  /** It could not be copied or opened (missing, not SQLite, encrypted…). */
  | { ok: false; kind: 'error'; reason: string }
