-- Well-formed records an importer did not read (a record type or an event it does not know: the
-- agent's format changed), counted per history file, agent version and kind, so a format change
-- shows up as a count instead of as history that silently goes missing. The counts go with their
-- file's import row: a file read again from the start counts afresh.
CREATE TABLE unread_records (
  import_file_id INTEGER NOT NULL REFERENCES import_files(id) ON DELETE CASCADE,
  -- '' when the file does not say which version of the agent wrote it.
  agent_version TEXT NOT NULL,
  what TEXT NOT NULL,
  count INTEGER NOT NULL,
  first_offset INTEGER NOT NULL,
  PRIMARY KEY (import_file_id, agent_version, what)
) WITHOUT ROWID;
