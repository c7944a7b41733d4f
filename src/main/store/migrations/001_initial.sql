-- Workspaces, the session tree, dual transcripts, chat checkpoints and full-text search.

CREATE TABLE workspaces (
  id             INTEGER PRIMARY KEY,
  path           TEXT NOT NULL UNIQUE,
  name           TEXT NOT NULL,
  is_demo        INTEGER NOT NULL DEFAULT 0 CHECK (is_demo IN (0, 1)),
  created_at     INTEGER NOT NULL,
  last_opened_at INTEGER
);

-- Sessions form a tree: parent_id (forks, sub-agents, children) plus predecessor_id for
-- session resets (/clear, /new), which continue a conversation in a fresh session.
CREATE TABLE sessions (
  id                INTEGER PRIMARY KEY,
  uid               TEXT NOT NULL UNIQUE,
  workspace_id      INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  source            TEXT NOT NULL,
  source_session_id TEXT,
  title             TEXT NOT NULL DEFAULT '',
  kind              TEXT NOT NULL CHECK (kind IN ('main', 'child', 'branch', 'sub-agent', 'ephemeral')),
  parent_id         INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
  fork_seq          INTEGER,
  depth             INTEGER NOT NULL DEFAULT 0,
  predecessor_id    INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
  status            TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'closed')),
  model             TEXT,
  cwd               TEXT,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  message_count     INTEGER NOT NULL DEFAULT 0,
  turn_count        INTEGER NOT NULL DEFAULT 0,
  context_start_seq INTEGER NOT NULL DEFAULT 0,
  input_tokens      INTEGER NOT NULL DEFAULT 0,
  output_tokens     INTEGER NOT NULL DEFAULT 0,
  cache_read_tokens INTEGER NOT NULL DEFAULT 0,
  cache_write_tokens INTEGER NOT NULL DEFAULT 0,
  cost_usd          REAL
);
CREATE INDEX sessions_by_activity ON sessions (workspace_id, updated_at DESC, id DESC);
CREATE INDEX sessions_by_parent ON sessions (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX sessions_by_predecessor ON sessions (predecessor_id) WHERE predecessor_id IS NOT NULL;
CREATE UNIQUE INDEX sessions_by_source_id ON sessions (workspace_id, source, source_session_id)
  WHERE source_session_id IS NOT NULL;

-- One row per message of the display transcript (never rewritten). The context transcript is
-- derived: messages with in_context = 1 from the session's context_start_seq on; a compaction
-- appends a compaction_summary and moves context_start_seq to it.
CREATE TABLE messages (
  id                 INTEGER PRIMARY KEY,
  session_id         INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  seq                INTEGER NOT NULL,
  turn               INTEGER NOT NULL,
  role               TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'reasoning', 'tool_call', 'tool_result', 'system', 'compaction_summary')),
  content            TEXT NOT NULL DEFAULT '',
  tool_name          TEXT,
  tool_call_id       TEXT,
  tool_input         TEXT,
  is_error           INTEGER NOT NULL DEFAULT 0,
  in_context         INTEGER NOT NULL DEFAULT 1,
  model              TEXT,
  input_tokens       INTEGER,
  output_tokens      INTEGER,
  cache_read_tokens  INTEGER,
  cache_write_tokens INTEGER,
  cost_usd           REAL,
  created_at         INTEGER,
  source_ref         TEXT,
  UNIQUE (session_id, seq)
);

-- Chat checkpoints: one per closed turn.
CREATE TABLE checkpoints (
  id               INTEGER PRIMARY KEY,
  session_id       INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  turn             INTEGER NOT NULL,
  messages_before  INTEGER NOT NULL,
  journal_scope_id INTEGER,
  invalidated      INTEGER NOT NULL DEFAULT 0 CHECK (invalidated IN (0, 1)),
  created_at       INTEGER NOT NULL,
  UNIQUE (session_id, turn)
);

-- External-content FTS5 index over message text and tool input, kept in step by triggers.
CREATE VIRTUAL TABLE messages_fts USING fts5(
  content, tool_input,
  content = 'messages', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts (rowid, content, tool_input) VALUES (new.id, new.content, new.tool_input);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, content, tool_input) VALUES ('delete', old.id, old.content, old.tool_input);
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, tool_input ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, content, tool_input) VALUES ('delete', old.id, old.content, old.tool_input);
  INSERT INTO messages_fts (rowid, content, tool_input) VALUES (new.id, new.content, new.tool_input);
END;
