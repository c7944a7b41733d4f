-- The +N −M of a change, kept once computed (R28): a line diff costs up to a second, and a turn's
-- header asks for every file it changed, on every view. Keyed by the two contents' hashes
-- ('' for an absent side), so a count is never stale and a pair seen twice is diffed once.
-- outcome: 'text' (the counts are exact), 'binary', or 'too-many-changes' (past the line
-- diff's bounds: no counts). Links and files over the diff's size limit are never diffed.
CREATE TABLE line_counts (
  before_hash TEXT NOT NULL,
  after_hash TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('text', 'binary', 'too-many-changes')),
  added INTEGER NOT NULL DEFAULT 0,
  removed INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (before_hash, after_hash)
) WITHOUT ROWID;
