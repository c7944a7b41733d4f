-- An agent may delete its own history files (Claude Code removes sessions after
-- `cleanupPeriodDays`): Retrace keeps what it imported, and marks the file as gone. Set when an
-- imported file is missing while the folder it was found under is still there (an unplugged
-- disk is not a deletion); cleared if the file comes back. Nothing is ever removed for it.
ALTER TABLE import_files ADD COLUMN source_gone_at INTEGER;
CREATE INDEX import_files_gone_by_session ON import_files (session_id) WHERE source_gone_at IS NOT NULL;
-- The look for deleted files after every import of all histories reads each source's rows: from
-- this index alone, not from the rows with their parser and import state.
CREATE INDEX import_files_by_source ON import_files (source, workspace_id, path, source_gone_at);
