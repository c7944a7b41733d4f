-- The first screen's totals, kept (issue 41, R74): per workspace, what `workspaces.listAll`
-- would otherwise group from every session of every workspace on each call, and per recorded
-- folder and source, what it would group from every row of `recorded_files`. A total is a
-- cache of its recount: any write that could change it removes it (workspaces) or marks it
-- stale (recorded folders), and the listing recounts only those, from the same rows in the
-- same order as a full recount, so every figure stays exactly what the recount gives.

-- Sessions but warm-ups, last activity and cost (warm-ups included), sessions by source as
-- JSON [[source, count], …]. A workspace without a row here is recounted.
CREATE TABLE workspace_totals (
  workspace_id     INTEGER PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
  session_count    INTEGER NOT NULL,
  last_activity_at INTEGER,
  cost_usd         REAL,
  sources          TEXT NOT NULL
);

CREATE TRIGGER workspace_totals_session_added AFTER INSERT ON sessions BEGIN
  DELETE FROM workspace_totals WHERE workspace_id = NEW.workspace_id;
END;
CREATE TRIGGER workspace_totals_session_removed AFTER DELETE ON sessions BEGIN
  DELETE FROM workspace_totals WHERE workspace_id = OLD.workspace_id;
END;
CREATE TRIGGER workspace_totals_session_changed
  AFTER UPDATE OF workspace_id, source, warmup, updated_at, cost_usd, priced_cost_usd ON sessions BEGIN
  DELETE FROM workspace_totals WHERE workspace_id IN (OLD.workspace_id, NEW.workspace_id);
END;

-- Per folder and source of the histories' index: files, files no import has read (no
-- `import_files` row for their path), latest activity. A group named in
-- `recorded_totals_stale` is recounted; a group with neither row has no files.
CREATE TABLE recorded_totals (
  cwd              TEXT NOT NULL,
  source           TEXT NOT NULL,
  files            INTEGER NOT NULL,
  not_imported     INTEGER NOT NULL,
  last_activity_at INTEGER,
  PRIMARY KEY (cwd, source)
) WITHOUT ROWID;
CREATE TABLE recorded_totals_stale (
  cwd    TEXT NOT NULL,
  source TEXT NOT NULL,
  PRIMARY KEY (cwd, source)
) WITHOUT ROWID;

-- Marks are added with NOT EXISTS, not INSERT OR IGNORE: an outer statement's conflict policy
-- (the index's upsert) would override the trigger's.
CREATE TRIGGER recorded_totals_file_added AFTER INSERT ON recorded_files BEGIN
  INSERT INTO recorded_totals_stale (cwd, source) SELECT NEW.cwd, NEW.source
    WHERE NOT EXISTS (SELECT 1 FROM recorded_totals_stale WHERE cwd = NEW.cwd AND source = NEW.source);
END;
CREATE TRIGGER recorded_totals_file_removed AFTER DELETE ON recorded_files BEGIN
  INSERT INTO recorded_totals_stale (cwd, source) SELECT OLD.cwd, OLD.source
    WHERE NOT EXISTS (SELECT 1 FROM recorded_totals_stale WHERE cwd = OLD.cwd AND source = OLD.source);
END;
CREATE TRIGGER recorded_totals_file_changed AFTER UPDATE OF source, path, cwd, last_activity_at ON recorded_files BEGIN
  INSERT INTO recorded_totals_stale (cwd, source) SELECT OLD.cwd, OLD.source
    WHERE NOT EXISTS (SELECT 1 FROM recorded_totals_stale WHERE cwd = OLD.cwd AND source = OLD.source);
  INSERT INTO recorded_totals_stale (cwd, source) SELECT NEW.cwd, NEW.source
    WHERE NOT EXISTS (SELECT 1 FROM recorded_totals_stale WHERE cwd = NEW.cwd AND source = NEW.source);
END;
-- Whether a recorded file counts as imported is whether an import row names its path.
CREATE TRIGGER recorded_totals_import_added AFTER INSERT ON import_files BEGIN
  INSERT INTO recorded_totals_stale (cwd, source) SELECT r.cwd, r.source FROM recorded_files r
    WHERE r.source = NEW.source AND r.path = NEW.path
      AND NOT EXISTS (SELECT 1 FROM recorded_totals_stale s WHERE s.cwd = r.cwd AND s.source = r.source);
END;
CREATE TRIGGER recorded_totals_import_removed AFTER DELETE ON import_files BEGIN
  INSERT INTO recorded_totals_stale (cwd, source) SELECT r.cwd, r.source FROM recorded_files r
    WHERE r.source = OLD.source AND r.path = OLD.path
      AND NOT EXISTS (SELECT 1 FROM recorded_totals_stale s WHERE s.cwd = r.cwd AND s.source = r.source);
END;
CREATE TRIGGER recorded_totals_import_moved AFTER UPDATE OF source, path ON import_files BEGIN
  INSERT INTO recorded_totals_stale (cwd, source) SELECT r.cwd, r.source FROM recorded_files r
    WHERE r.source = OLD.source AND r.path = OLD.path
      AND NOT EXISTS (SELECT 1 FROM recorded_totals_stale s WHERE s.cwd = r.cwd AND s.source = r.source);
  INSERT INTO recorded_totals_stale (cwd, source) SELECT r.cwd, r.source FROM recorded_files r
    WHERE r.source = NEW.source AND r.path = NEW.path
      AND NOT EXISTS (SELECT 1 FROM recorded_totals_stale s WHERE s.cwd = r.cwd AND s.source = r.source);
END;

-- Every group as it stands: stale, so the first listing recounts it once.
INSERT INTO recorded_totals_stale (cwd, source) SELECT DISTINCT cwd, source FROM recorded_files;
