-- Preset deflate dictionaries. The small files of one project share most of their vocabulary
-- (imports, keywords, identifiers, licence headers), which deflating each file alone cannot
-- use. A workspace's first scan samples the starts of the first text files it reads into a
-- dictionary (32 KiB, itself a blob), and its inline content is deflated with it (see
-- journal/deflate-dictionary.ts).
-- Rows name their dictionary by a small id, not its 64-character hash: on 10,000 blobs that
-- is 0.6 MiB, a tenth of what the dictionary saves. INTEGER PRIMARY KEY: the id survives VACUUM;
-- AUTOINCREMENT: an id is never reused after garbage collection, so a process that cached a
-- dictionary by id can never be handed another one under it.
CREATE TABLE deflate_dictionaries (
  id   INTEGER PRIMARY KEY AUTOINCREMENT,
  hash TEXT NOT NULL UNIQUE REFERENCES blobs(hash)
);
-- The dictionary a deflated row was compressed with (NULL: none).
ALTER TABLE blobs ADD COLUMN dictionary_id INTEGER REFERENCES deflate_dictionaries(id);
-- The dictionary the workspace's scans deflate with (NULL: none yet; the next scan builds one).
ALTER TABLE workspaces ADD COLUMN deflate_dictionary_id INTEGER REFERENCES deflate_dictionaries(id);
