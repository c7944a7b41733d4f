-- Usage across every workspace (issue 41 §3, R71): the report reads every message that carries
-- usage, millions on a heavy history. Without this index each such message is read from the
-- table's rows, with their content; this partial index holds only the messages with usage and
-- every column the report sums, in session order, so the report reads the index alone (the
-- query repeats this WHERE clause word for word for SQLite to use it).
CREATE INDEX messages_usage ON messages (session_id, seq, created_at, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd)
  WHERE input_tokens IS NOT NULL OR cost_usd IS NOT NULL;
