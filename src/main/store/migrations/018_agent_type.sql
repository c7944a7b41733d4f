-- A sub-agent's kind as its agent names it (issue 30): Claude Code writes `agentType` in the
-- agent's `agent-<id>.meta.json` (`Explore`, `general-purpose`, a user-defined agent,
-- `workflow-subagent`). NULL for other sessions and when the agent's files do not say.
ALTER TABLE sessions ADD COLUMN agent_type TEXT;
