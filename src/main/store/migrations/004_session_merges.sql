-- A branch merged back into its parent: drawn as an edge in the session tree.
CREATE TABLE session_merges (
  id             INTEGER PRIMARY KEY,
  branch_id      INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  into_id        INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  mode           TEXT NOT NULL CHECK (mode IN ('append', 'replace')),
  -- Where the merged messages start in the parent's display transcript, and how many there are.
  first_seq      INTEGER NOT NULL,
  message_count  INTEGER NOT NULL,
  created_at     INTEGER NOT NULL
);
CREATE INDEX session_merges_by_into ON session_merges (into_id);
CREATE INDEX session_merges_by_branch ON session_merges (branch_id);
