-- Three indexes of journal_entries cost every insert and served almost nothing. A rewind of
-- 1,000 files records 1,000 entries before it may change a file, and a capture records one per
-- changed file; with random paths and 64-character hashes, each insert touched a random page of
-- each index. Measured on a 10,000-file workspace's store: the rewind's record took 58-77 ms of
-- CPU with them, 13-22 ms without.
--
-- by_path: no query uses it. A path's history looks in the workspace's scopes (by_scope), as
-- the planner chose: its `path = ? OR from_path = ?` cannot use an index on path alone.
-- by_hash_before, by_hash_after: garbage collection now finds the referenced hashes in one pass
-- (uncorrelated NOT IN, one temporary index per run), with foreign keys unenforced for its
-- delete, so SQLite does not look up each deleted blob's referrers (journal/blob-store.ts).
-- files.version's check that a workspace recorded a hash reads that workspace's entries.
DROP INDEX journal_entries_by_path;
DROP INDEX journal_entries_by_hash_before;
DROP INDEX journal_entries_by_hash_after;
