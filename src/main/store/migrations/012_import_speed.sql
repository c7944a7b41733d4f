-- A file read to its end records its modification time: a re-import finds it unchanged by its
-- stat alone (same inode, size and time) and opens nothing.
ALTER TABLE import_files ADD COLUMN mtime_ms REAL;

-- The full-text index may lag behind `messages` while a large import runs: messages with an id
-- from `from_id` on are not indexed yet (NULL: every message is). An import defers indexing and
-- fills the index in bulk at its end: FTS5 writes and merges a segment per transaction when fed
-- row by row, which cost several times the rest of an import's inserts.
CREATE TABLE fts_backlog (
  id      INTEGER PRIMARY KEY CHECK (id = 1),
  from_id INTEGER
);
INSERT INTO fts_backlog (id, from_id) VALUES (1, NULL);

DROP TRIGGER messages_fts_insert;
DROP TRIGGER messages_fts_delete;
DROP TRIGGER messages_fts_update;
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages
WHEN new.id < coalesce((SELECT from_id FROM fts_backlog WHERE id = 1), 9223372036854775807) BEGIN
  INSERT INTO messages_fts (rowid, content, tool_input) VALUES (new.id, new.content, new.tool_input);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages
WHEN old.id < coalesce((SELECT from_id FROM fts_backlog WHERE id = 1), 9223372036854775807) BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, content, tool_input) VALUES ('delete', old.id, old.content, old.tool_input);
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, tool_input ON messages
WHEN old.id < coalesce((SELECT from_id FROM fts_backlog WHERE id = 1), 9223372036854775807) BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, content, tool_input) VALUES ('delete', old.id, old.content, old.tool_input);
  INSERT INTO messages_fts (rowid, content, tool_input) VALUES (new.id, new.content, new.tool_input);
END;

-- What discovery read from each history file's first lines (its session, cwd, start…), kept with
-- the file's identity and size: an unchanged file is not opened again to be sorted into its
-- workspace. A cache: anything here can be read again from the file.
CREATE TABLE discovered_files (
  path      TEXT PRIMARY KEY,
  signature TEXT NOT NULL,
  facts     TEXT NOT NULL
);
