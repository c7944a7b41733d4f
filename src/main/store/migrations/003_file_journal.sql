-- The file journal: content-addressed blobs, per-checkpoint scopes of file changes, the last
-- scanned state of each workspace file (the stat cache), and rewinds.

-- Content by sha256. Small content lives inline; large content is a gzip file under
-- <data>/blobs/<2 hex>/<hash>.gz, registered here once it is durable. A rowid table on
-- purpose: WITHOUT ROWID stores KB-sized rows in the key's b-tree and was measured 4-5x
-- slower to fill with many small files.
CREATE TABLE blobs (
  hash       TEXT PRIMARY KEY,
  size       INTEGER NOT NULL,
  storage    TEXT NOT NULL CHECK (storage IN ('inline', 'file')),
  -- Inline content is deflated when that saves at least a tenth; file blobs are always gzip.
  encoding   TEXT NOT NULL DEFAULT 'raw' CHECK (encoding IN ('raw', 'deflate')),
  data       BLOB,
  created_at INTEGER NOT NULL,
  CHECK ((storage = 'inline') = (data IS NOT NULL))
);

-- A scope groups the file changes of one turn (or of one rewind, which is itself undoable).
CREATE TABLE journal_scopes (
  id           INTEGER PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  session_id   INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
  turn         INTEGER,
  kind         TEXT NOT NULL CHECK (kind IN ('turn', 'rewind')),
  status       TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  created_at   INTEGER NOT NULL,
  closed_at    INTEGER
);
CREATE INDEX journal_scopes_by_session ON journal_scopes (session_id, turn);
CREATE INDEX journal_scopes_by_workspace ON journal_scopes (workspace_id, id);

-- One change to one path. Paths are workspace-relative raw bytes (BLOB), so names that are
-- not UTF-8 round-trip exactly. Hashes name blobs: file content, or a symlink's target bytes.
CREATE TABLE journal_entries (
  id           INTEGER PRIMARY KEY,
  scope_id     INTEGER NOT NULL REFERENCES journal_scopes(id) ON DELETE CASCADE,
  op           TEXT NOT NULL CHECK (op IN ('create', 'modify', 'delete', 'rename', 'mode')),
  path         BLOB NOT NULL,
  from_path    BLOB,
  kind_before  TEXT CHECK (kind_before IN ('file', 'symlink')),
  kind_after   TEXT CHECK (kind_after IN ('file', 'symlink')),
  hash_before  TEXT REFERENCES blobs(hash),
  hash_after   TEXT REFERENCES blobs(hash),
  size_before  INTEGER,
  size_after   INTEGER,
  mode_before  INTEGER,
  mode_after   INTEGER,
  observed     TEXT NOT NULL CHECK (observed IN ('tool', 'scan', 'backup', 'patch', 'rewind')),
  created_at   INTEGER NOT NULL,
  CHECK ((op = 'rename') = (from_path IS NOT NULL))
);
CREATE INDEX journal_entries_by_scope ON journal_entries (scope_id, id);
CREATE INDEX journal_entries_by_path ON journal_entries (path, scope_id);
CREATE INDEX journal_entries_by_hash_before ON journal_entries (hash_before) WHERE hash_before IS NOT NULL;
CREATE INDEX journal_entries_by_hash_after ON journal_entries (hash_after) WHERE hash_after IS NOT NULL;

-- The last scan of each workspace: what every file looked like, and the stat fields that let
-- the next scan skip re-hashing it. ctime and inode are kept because a same-size edit with a
-- restored mtime still changes the ctime.
CREATE TABLE file_states (
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  path         BLOB NOT NULL,
  kind         TEXT NOT NULL CHECK (kind IN ('file', 'symlink')),
  size         INTEGER NOT NULL,
  mode         INTEGER NOT NULL,
  hash         TEXT NOT NULL REFERENCES blobs(hash),
  mtime_ns     INTEGER NOT NULL,
  ctime_ns     INTEGER NOT NULL,
  ino          INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, path)
) WITHOUT ROWID;

-- A rewind restores files to a checkpoint. Its `before` scope holds what it replaced, so an
-- undo is a rewind to that state. The intent log file makes it crash-safe.
CREATE TABLE rewinds (
  id             TEXT PRIMARY KEY,
  workspace_id   INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  session_id     INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
  target_turn    INTEGER,
  undo_of        TEXT REFERENCES rewinds(id),
  before_scope_id INTEGER REFERENCES journal_scopes(id),
  status         TEXT NOT NULL CHECK (status IN ('applying', 'applied', 'rolled_back', 'failed', 'undone')),
  summary        TEXT NOT NULL DEFAULT '{}',
  created_at     INTEGER NOT NULL,
  finished_at    INTEGER
) WITHOUT ROWID;
CREATE INDEX rewinds_by_session ON rewinds (session_id, created_at);
