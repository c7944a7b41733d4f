-- The branch's last display seq a merge took: a later merge of the same branch takes only the
-- messages after it, so merging twice never copies a message twice (issue 28). Merges recorded
-- before this column took the whole branch as it was; branches were closed by their merge, so
-- the branch's last message now is the best record of where that merge ended.
ALTER TABLE session_merges ADD COLUMN through_seq INTEGER;
UPDATE session_merges SET through_seq = (SELECT max(seq) FROM messages WHERE session_id = session_merges.branch_id);
