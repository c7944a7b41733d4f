import Database from 'better-sqlite3'

/** The columns of LangGraph's `checkpoints` table (SqliteSaver). */
const CHECKPOINT_COLUMNS = 'thread_id TEXT, checkpoint_ns TEXT, checkpoint_id TEXT, parent_checkpoint_id TEXT, type TEXT, checkpoint BLOB, metadata BLOB'

function create(path: string, sql: string): string {
  const db = new Database(path)
  db.exec(sql)
  db.close()
  return path
}

/**
 * The reproduction: `checkpoints` is a view over a recursive query with no end that
 * never yields a row. Any query of it runs forever inside SQLite.
 */
export function endlessViewDb(path: string): string {
  return create(
    path,
    `CREATE VIEW checkpoints AS
       WITH RECURSIVE forever(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM forever)
       SELECT 't' AS thread_id, '' AS checkpoint_ns, n AS checkpoint_id, NULL AS parent_checkpoint_id, 'msgpack' AS type, x'80' AS checkpoint, x'80' AS metadata
       FROM forever WHERE n < 0`
  )
}

/** `checkpoints` as an FTS5 virtual table with LangGraph's column names. */
export function virtualTableDb(path: string): string {
  return create(path, 'CREATE VIRTUAL TABLE checkpoints USING fts5(thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata)')
}

/** A plain `checkpoints` table with a trigger on it. */
export function triggerDb(path: string): string {
  return create(path, `CREATE TABLE checkpoints (${CHECKPOINT_COLUMNS}); CREATE TABLE log (n); CREATE TRIGGER on_checkpoint AFTER INSERT ON checkpoints BEGIN INSERT INTO log VALUES (1); END`)
}

/** A `checkpoints` table whose `checkpoint` column is computed by an expression on each read. */
export function generatedColumnDb(path: string): string {
  return create(path, 'CREATE TABLE checkpoints (thread_id TEXT, checkpoint_ns TEXT, checkpoint_id TEXT, parent_checkpoint_id TEXT, type TEXT, checkpoint BLOB AS (zeroblob(1000000)), metadata BLOB)')
}

/** A plain `checkpoints` table of another shape (not LangGraph's). */
export function wrongShapeDb(path: string): string {
  return create(path, "CREATE TABLE checkpoints (id INTEGER PRIMARY KEY, data BLOB); INSERT INTO checkpoints (data) VALUES (x'00')")
}

/**
 * A genuine LangGraph-shaped database too big to read within a small time limit: `rows`
 * checkpoints (a million take several seconds to read; SQLite writes them in a fraction of that).
 */
export function slowDb(path: string, rows = 1_000_000): string {
  return create(
    path,
    `CREATE TABLE checkpoints (${CHECKPOINT_COLUMNS});
     INSERT INTO checkpoints
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT ${rows})
       SELECT 'thread-' || (i % 1000), '', printf('%012d', i * 7919 % ${rows}), NULL, 'msgpack', x'80', x'80' FROM n`
  )
}
