-- One session, one row (issue 40 §3, R60). Before R59, opening a folder imported the sessions that
-- ran in its subfolders again, as new sessions of its own: a history imported under a subfolder's
-- workspace and under a parent folder's was stored twice (or more, one copy per enclosing folder
-- opened). Each such set is folded into the copy stored under the deepest folder, the one closest
-- to where the session ran, which R59's importer keeps importing into.
--
-- Nothing the user or the journal recorded is lost: the other copies' messages, checkpoints and
-- import rows are those of the same history file, which the kept copy holds (a copy is folded only
-- when the kept one has at least as many messages). Their journal entries stay in the journal of
-- the workspace they were recorded in, with their blobs: the rewinds made from a folded copy, and
-- the scopes of those rewinds, pass to the kept session (they still undo in the folder they
-- changed); its turns' scopes, recorded with paths relative to the parent folder, stay there as
-- that folder's file history, without a session (as a deleted session's do), so no rewind of the
-- kept session reads paths relative to another folder. Sessions made in Retrace from a folded copy
-- (forks, continuations) now hang below the kept one. A copy that took part in a merge is left
-- alone: the merge's messages would go with it.

CREATE TEMP TABLE fold_copies (drop_id INTEGER PRIMARY KEY, keep_id INTEGER NOT NULL);

INSERT INTO fold_copies (drop_id, keep_id)
SELECT d.id, k.id
FROM sessions d
JOIN workspaces dw ON dw.id = d.workspace_id
JOIN sessions k ON k.source = d.source AND k.source_session_id = d.source_session_id
JOIN workspaces kw ON kw.id = k.workspace_id
WHERE d.source_session_id IS NOT NULL
  -- k is stored under a subfolder of d's folder ('\' for Windows paths)…
  AND substr(kw.path, 1, length(dw.path) + 1) IN (dw.path || '/', dw.path || '\')
  -- …and no copy is stored deeper than k.
  AND NOT EXISTS (
    SELECT 1 FROM sessions x JOIN workspaces xw ON xw.id = x.workspace_id
    WHERE x.source = k.source AND x.source_session_id = k.source_session_id
      AND substr(xw.path, 1, length(kw.path) + 1) IN (kw.path || '/', kw.path || '\'))
  AND k.message_count >= d.message_count
  AND NOT EXISTS (SELECT 1 FROM session_merges m WHERE m.into_id = d.id OR m.branch_id = d.id)
  AND NOT EXISTS (SELECT 1 FROM session_undone_merges u WHERE u.into_id = d.id OR u.branch_id = d.id);

-- Links from sessions that stay.
UPDATE sessions SET parent_id = (SELECT keep_id FROM fold_copies WHERE drop_id = sessions.parent_id)
WHERE parent_id IN (SELECT drop_id FROM fold_copies) AND id NOT IN (SELECT drop_id FROM fold_copies);
UPDATE sessions SET predecessor_id = (SELECT keep_id FROM fold_copies WHERE drop_id = sessions.predecessor_id)
WHERE predecessor_id IN (SELECT drop_id FROM fold_copies) AND id NOT IN (SELECT drop_id FROM fold_copies);

-- What the user did from a folded copy: its rewinds and their scopes.
UPDATE rewinds SET session_id = (SELECT keep_id FROM fold_copies WHERE drop_id = rewinds.session_id)
WHERE session_id IN (SELECT drop_id FROM fold_copies);
UPDATE journal_scopes SET session_id = (SELECT keep_id FROM fold_copies WHERE drop_id = journal_scopes.session_id)
WHERE kind = 'rewind' AND session_id IN (SELECT drop_id FROM fold_copies);

-- The copies themselves: their messages (and search index entries), checkpoints, attachments and
-- import rows go by cascade; their turn scopes stay, without a session (ON DELETE SET NULL).
DELETE FROM sessions WHERE id IN (SELECT drop_id FROM fold_copies);

DROP TABLE fold_copies;

-- The session files "Continue in Claude Code / Codex" wrote (sources/continue/), by the agent's id
-- of the new session: imported, such a file's session is the continuation of the one it was
-- written from (its predecessor, as after `/clear`), not a second main session with the same
-- title and conversation (R61). The agent's own format has no field for it.
CREATE TABLE agent_continuations (
  source           TEXT NOT NULL,
  agent_session_id TEXT NOT NULL,
  session_id       INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  turn             INTEGER NOT NULL,
  created_at       INTEGER NOT NULL,
  PRIMARY KEY (source, agent_session_id)
) WITHOUT ROWID;
