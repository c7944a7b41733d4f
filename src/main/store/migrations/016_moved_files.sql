-- A history file's content can move (Codex archives a rollout to archived_sessions/, compresses an
-- idle one to rollout-….jsonl.zst and decompresses it to write on): content_key names it wherever
-- it is (the rollout's file name without .zst), so its import continues at the new path instead
-- of reading it again. file_size is the file's size on disk when it was read to its end: a
-- compressed file's offset counts decoded bytes, so its size on disk says whether it changed.
ALTER TABLE import_files ADD COLUMN content_key TEXT;
ALTER TABLE import_files ADD COLUMN file_size INTEGER;
-- Rollouts imported before: their file name (what follows the last '/').
UPDATE import_files SET content_key = replace(path, rtrim(path, replace(path, '/', '')), '') WHERE source = 'codex';
CREATE INDEX import_files_by_content_key ON import_files (workspace_id, source, content_key) WHERE content_key IS NOT NULL;
