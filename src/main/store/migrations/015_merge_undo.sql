-- What undoing a merge puts back (issue 28). `undo_state` (JSON) holds the target session's
-- counters, usage and last checkpointed turn from before the merge, and the branch's status:
-- the merge's messages are deleted and these written back, so usage is exactly as it was.
-- NULL for merges recorded before this column and for a source's inferred merges: not undoable.
ALTER TABLE session_merges ADD COLUMN undo_state TEXT;

-- The target's messages a `replace` merge took out of the context transcript: only those that
-- were in it, so an undo puts back exactly these and not ones out of context for other reasons.
CREATE TABLE session_merge_context (
  merge_id    INTEGER NOT NULL REFERENCES session_merges(id) ON DELETE CASCADE,
  message_id  INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  PRIMARY KEY (merge_id, message_id)
) WITHOUT ROWID;
CREATE INDEX session_merge_context_by_message ON session_merge_context (message_id);
