-- Copilot CLI's input tokens, counted once (issue 40 §2, R64). `session.shutdown` gives each
-- model's `inputTokens` with the cache reads and writes already in them (71282 = 4 + 35495 +
-- 35783 on a real session); importers before R64 stored that as the fresh input and added the
-- cache beside it, so input and cost read about 4.7 times too high. The messages of a Copilot CLI
-- session carry only output tokens of their own: every input and cache token a session holds came
-- from a shutdown, so the fresh input is what is left once its cache tokens are taken out.
--
-- Only the sessions of files last read by an importer before R64: their import state has no
-- `pendingWrites`, which every importer since writes. A file read by both (a session resumed
-- across the upgrade) is left alone; reading it again gives its totals anew. Sub-agents and
-- Retrace's forks of such a session hold copies of its messages and are corrected with it. The
-- corrected sessions are priced again at the next start (priced_with cleared).

CREATE TEMP TABLE copilot_old_rule (session_id INTEGER PRIMARY KEY);

INSERT OR IGNORE INTO copilot_old_rule (session_id)
SELECT s.id
FROM sessions s
JOIN import_files f ON f.source = 'copilot-cli' AND (f.session_id = s.id OR f.session_id = s.parent_id)
WHERE s.source = 'copilot-cli' AND instr(f.import_state, '"pendingWrites"') = 0;

UPDATE messages
SET input_tokens = input_tokens - coalesce(cache_read_tokens, 0) - coalesce(cache_write_tokens, 0)
WHERE session_id IN (SELECT session_id FROM copilot_old_rule)
  AND coalesce(cache_read_tokens, 0) + coalesce(cache_write_tokens, 0) > 0
  AND input_tokens >= coalesce(cache_read_tokens, 0) + coalesce(cache_write_tokens, 0);

UPDATE sessions
SET input_tokens = input_tokens - cache_read_tokens - cache_write_tokens, priced_with = NULL
WHERE id IN (SELECT session_id FROM copilot_old_rule)
  AND cache_read_tokens + cache_write_tokens > 0
  AND input_tokens >= cache_read_tokens + cache_write_tokens;

DROP TABLE copilot_old_rule;
