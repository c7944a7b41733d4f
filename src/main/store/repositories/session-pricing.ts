import { costOf, PRICES_DATE, type TokenCounts } from '../../pricing/prices'
import type { Db } from '../database'

interface ModelTokens extends TokenCounts {
  sessionId: number
  model: string | null
}

/**
 * A message's usage counts for its own session only: a branch starts with a copy of its parent's
 * prefix (seq < fork_seq), whose tokens the parent spent. Shared by the pricing and the Usage view.
 */
export const OWN_MESSAGE = `NOT (s.kind = 'branch' AND s.fork_seq IS NOT NULL AND m.seq < s.fork_seq)`

const TOKEN_SUMS = `coalesce(sum(m.input_tokens), 0) AS inputTokens, coalesce(sum(m.output_tokens), 0) AS outputTokens,
  coalesce(sum(m.cache_read_tokens), 0) AS cacheReadTokens, coalesce(sum(m.cache_write_tokens), 0) AS cacheWriteTokens`

/**
 * Sessions' cost at the price table's prices (migration 020): computed from their messages'
 * tokens by model, for the sessions imported before the table (or with an older one) and for
 * those whose messages moved (a line split off). An import keeps it up to date as it goes
 * (`SessionWriter`); this is the recompute.
 */
export class SessionPricing {
  private readonly staleTokensStmt
  private readonly sessionTokensStmt
  private readonly clearStaleStmt
  private readonly setStmt
  private readonly anyStaleStmt

  constructor(db: Db) {
    this.anyStaleStmt = db.prepare('SELECT 1 FROM sessions WHERE priced_with IS NULL OR priced_with != ? LIMIT 1').pluck()
    const select = `SELECT m.session_id AS sessionId, coalesce(m.model, s.model) AS model, ${TOKEN_SUMS}
      FROM messages m JOIN sessions s ON s.id = m.session_id`
    const priced = `m.cost_usd IS NULL AND m.input_tokens IS NOT NULL AND ${OWN_MESSAGE}`
    this.staleTokensStmt = db.prepare(`${select} WHERE (s.priced_with IS NULL OR s.priced_with != @date) AND ${priced} GROUP BY m.session_id, 2`)
    this.sessionTokensStmt = db.prepare(`${select} WHERE m.session_id = @id AND ${priced} GROUP BY m.session_id, 2`)
    this.clearStaleStmt = db.prepare('UPDATE sessions SET priced_cost_usd = NULL, priced_with = @date WHERE priced_with IS NULL OR priced_with != @date')
    this.setStmt = db.prepare('UPDATE sessions SET priced_cost_usd = @cost, priced_with = @date WHERE id = @id')
  }

  /** Whether a session was priced with another table, or never (then `repriceStale`). */
  anyStale(): boolean {
    return this.anyStaleStmt.get(PRICES_DATE) !== undefined
  }

  /** Price every session not priced with this table; returns how many sessions got a cost. Run in a transaction. */
  repriceStale(): number {
    const rows = this.staleTokensStmt.all({ date: PRICES_DATE }) as ModelTokens[]
    this.clearStaleStmt.run({ date: PRICES_DATE })
    return this.save(rows)
  }

  /** Price these sessions again from their messages (after messages moved between them). */
  reprice(rowIds: readonly number[]): void {
    for (const id of rowIds) {
      this.setStmt.run({ id, cost: null, date: PRICES_DATE })
      this.save(this.sessionTokensStmt.all({ id }) as ModelTokens[])
    }
  }

  private save(rows: readonly ModelTokens[]): number {
    const costs = new Map<number, number>()
    for (const row of rows) {
      const cost = costOf(row.model, row)
      if (cost !== undefined) costs.set(row.sessionId, (costs.get(row.sessionId) ?? 0) + cost)
    }
    for (const [id, cost] of costs) this.setStmt.run({ id, cost, date: PRICES_DATE })
    return costs.size
  }
}
