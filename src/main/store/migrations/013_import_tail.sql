-- What the bytes just before a file's import offset were: an agent that rewrites its history in
-- place (Copilot CLI's /rewind cuts events.jsonl short, then appends) leaves the first bytes as
-- they were, and once the file has grown past the old offset its size says nothing either. An
-- import resumes only where these bytes are unchanged; else it reads the file from the start.
-- NULL for rows saved before this column existed: the check is skipped for them once.
ALTER TABLE import_files ADD COLUMN tail_sha256 TEXT;
