-- Folders the user added to a workspace as a source's history ("add source folder", or
-- `retrace import --source NAME --path DIR`): a copied ~/.claude, an agent's home elsewhere, a
-- CianaParrot deployment on another disk. Everything found there is imported into the workspace
-- and followed like its own histories. Read-only, like every foreign folder.
CREATE TABLE source_folders (
  id           INTEGER PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  source       TEXT NOT NULL,
  path         TEXT NOT NULL,
  added_at     INTEGER NOT NULL,
  UNIQUE (workspace_id, source, path)
);
