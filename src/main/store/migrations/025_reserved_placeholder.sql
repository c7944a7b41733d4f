-- Placeholder: migration 025 belongs to another branch of issue 38/40 (briefs give 023 to shrink,
-- 024 to cline-copilot, 025 to db-agents, 026 to file-agents). The runner refuses gaps, so this
-- branch (i40-one-row, migration 027) carries this empty file; drop it when the real 025 is merged.
SELECT 1;
