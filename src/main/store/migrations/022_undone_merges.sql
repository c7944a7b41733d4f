-- Merges that were undone (issue 39): an undo forgets the merge itself (its row above goes, so the
-- branch can be merged again), and this says it happened, so a second undo is told "the merge was
-- undone" rather than that the branch was never merged.
CREATE TABLE session_undone_merges (
  id             INTEGER PRIMARY KEY,
  branch_id      INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  into_id        INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  merged_at      INTEGER NOT NULL,
  undone_at      INTEGER NOT NULL,
  message_count  INTEGER NOT NULL
);
CREATE INDEX session_undone_merges_by_branch ON session_undone_merges (branch_id, into_id);
CREATE INDEX session_undone_merges_by_into ON session_undone_merges (into_id);
