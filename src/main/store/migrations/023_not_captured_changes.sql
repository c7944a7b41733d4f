-- The accounting rule (issue 40, docs/reliability.md R42): a file change an agent's history shows
-- that Retrace could not journal is kept against its turn, with the reason, so every turn can say
-- how much of it a rewind puts back. Deleted with the session; a fork copies its turns' rows.
-- source_file / source_offset: where the agent's history shows it (the import report's place too).
CREATE TABLE not_captured_changes (
  id            INTEGER PRIMARY KEY,
  session_id    INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  turn          INTEGER NOT NULL CHECK (turn > 0),
  tool          TEXT NOT NULL,
  path          TEXT,
  reason        TEXT NOT NULL,
  tool_call_id  TEXT,
  source_file   TEXT,
  source_offset INTEGER
);
-- A turn's entries, and a session's count for the session list (one index range per listed
-- session, inside the list's one query: no query per session).
CREATE INDEX not_captured_by_session ON not_captured_changes (session_id, turn);

-- A journaled change names the tool call that made it (imports), so the accounting check can
-- match every writing call with its change. Null for changes a scan or a rewind found.
ALTER TABLE journal_entries ADD COLUMN tool_call_id TEXT;
