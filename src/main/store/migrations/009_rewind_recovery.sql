-- Start-up recovery of a rewind a crash interrupted. It puts a file back only where the disk
-- still shows what the rewind wrote there; any other content is somebody's newer work: left in
-- place, saved to the store, and listed here beside the version from before the rewind, so the
-- user can take either. A path found empty has no `found` hash; one found as a folder or special
-- file has a kind but no hash (nothing to save).
CREATE TABLE rewind_recovery_conflicts (
  rewind_id   TEXT NOT NULL REFERENCES rewinds(id) ON DELETE CASCADE,
  path        BLOB NOT NULL,
  kind_found  TEXT CHECK (kind_found IN ('file', 'symlink', 'directory', 'other')),
  hash_found  TEXT REFERENCES blobs(hash),
  size_found  INTEGER,
  mode_found  INTEGER,
  kind_before TEXT CHECK (kind_before IN ('file', 'symlink')),
  hash_before TEXT REFERENCES blobs(hash),
  size_before INTEGER,
  mode_before INTEGER,
  PRIMARY KEY (rewind_id, path)
) WITHOUT ROWID;

-- When start-up recovery finished a rewind (null: it was not interrupted), and when the user
-- dismissed what the window said about it.
ALTER TABLE rewinds ADD COLUMN recovered_at INTEGER;
ALTER TABLE rewinds ADD COLUMN recovery_seen_at INTEGER;
