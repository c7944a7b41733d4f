-- Importers of foreign histories (Claude Code, Codex CLI, …).

-- What has been read of each foreign file, so a re-import reads only the bytes added since.
-- A file is known by its path and identity (device + inode, plus a hash of its first bytes,
-- which catches a file rewritten in place); `offset` is the end of the last complete line
-- consumed, and `parser_state` lets the line parser continue exactly there.
CREATE TABLE import_files (
  id            INTEGER PRIMARY KEY,
  workspace_id  INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  source        TEXT NOT NULL,
  path          TEXT NOT NULL,
  session_id    INTEGER REFERENCES sessions(id) ON DELETE CASCADE,
  dev           INTEGER NOT NULL,
  ino           INTEGER NOT NULL,
  head_sha256   TEXT NOT NULL,
  offset        INTEGER NOT NULL,
  parser_state  TEXT NOT NULL,
  -- What the importer itself must remember between increments (open turn, file chains).
  import_state  TEXT NOT NULL DEFAULT '{}',
  imported_at   INTEGER NOT NULL,
  UNIQUE (workspace_id, source, path)
);

-- The source's own id of a message (Claude Code `uuid`): fork copies of a parent's lines are
-- recognised by it, and a fork point is found by it.
ALTER TABLE messages ADD COLUMN source_uid TEXT;
CREATE INDEX messages_by_source_uid ON messages (session_id, source_uid) WHERE source_uid IS NOT NULL;

-- Images and documents a message carried, kept apart from its text.
CREATE TABLE message_attachments (
  id          INTEGER PRIMARY KEY,
  message_id  INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  media_type  TEXT NOT NULL,
  name        TEXT,
  data        BLOB
);
CREATE INDEX message_attachments_by_message ON message_attachments (message_id);

-- A turn whose shell commands may have changed files no workspace scan saw: the count of such
-- commands, so the UI can say the turn's file changes are incomplete.
ALTER TABLE checkpoints ADD COLUMN uncaptured_commands INTEGER NOT NULL DEFAULT 0;
