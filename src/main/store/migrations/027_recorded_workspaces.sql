-- What the agents' histories record, per history file: the workspace (folder) its session goes
-- to, and when it was last written to by its own word. The first screen lists workspaces from
-- this and the store, without opening a history file; a refresh in the background stats the
-- files and reads only those whose signature (size and modification time, or a snapshot
-- source's fingerprint) changed. A cache: everything here can be read again from the files.
-- A snapshot source's one database may record several folders: one row per folder.
CREATE TABLE recorded_files (
  source           TEXT NOT NULL,
  path             TEXT NOT NULL,
  cwd              TEXT NOT NULL,
  signature        TEXT NOT NULL,
  last_activity_at INTEGER,
  PRIMARY KEY (source, path, cwd)
);
CREATE INDEX recorded_files_by_cwd ON recorded_files (cwd, source);

-- When the index above was last brought up to date with every history file (NULL: never).
CREATE TABLE recorded_index_state (
  id           INTEGER PRIMARY KEY CHECK (id = 1),
  refreshed_at INTEGER
);
INSERT INTO recorded_index_state (id, refreshed_at) VALUES (1, NULL);

-- Whether a history file was imported is looked up by its path alone.
CREATE INDEX import_files_by_path ON import_files (source, path);

-- Workspaces the user hid from the first screen, by folder (a folder only the histories know
-- can be hidden too). `import --all` leaves a hidden folder's sessions where they are.
CREATE TABLE hidden_workspaces (
  path      TEXT PRIMARY KEY,
  hidden_at INTEGER NOT NULL
);
