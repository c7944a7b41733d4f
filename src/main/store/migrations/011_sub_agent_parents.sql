-- Where an imported session belongs, told apart from whether it is there yet.

-- The source's id of the session this one hangs below (a sub-agent's parent: Claude Code's
-- `sessionId` in an agent file). Kept once the link is made; while `parent_id` is null it says
-- which session is missing, and a session imported later under that id adopts it.
ALTER TABLE sessions ADD COLUMN parent_source_id TEXT;
CREATE INDEX sessions_by_parent_source ON sessions (workspace_id, source, parent_source_id)
  WHERE parent_source_id IS NOT NULL;

-- 1 for what an agent did at start-up rather than for the user: a Claude Code warm-up agent, or
-- a session without messages whose only sub-agents are warm-ups. Lists leave them out by default.
ALTER TABLE sessions ADD COLUMN warmup INTEGER NOT NULL DEFAULT 0;
