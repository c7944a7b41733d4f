-- What a session's tokens cost at the prices of Retrace's price table (src/main/pricing/), beside
-- the cost its source recorded (cost_usd: Cline, Aider, OpenCode…), which is kept and wins.
-- priced_with is the table's date the cost was computed with: a session priced with another
-- table (or never, as every session before this migration) is priced again at start.
-- Only the tokens of messages without a recorded cost are priced, and of a branch only its own
-- messages (not the copy of its parent's prefix).
ALTER TABLE sessions ADD COLUMN priced_cost_usd REAL;
ALTER TABLE sessions ADD COLUMN priced_with TEXT;
