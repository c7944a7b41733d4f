import { formatTiming, repeatAsync, repeatSync } from '../lib/stats'
import type { ResultRow } from '../lib/table'
import { call, type MeasureContext } from './context'

const TARGET_MS = 10
const LIMIT = 100

interface Page {
  items: { seq: number }[]
}

/**
 * Measure 3: pages of the 10,000-message session at its start, middle and end via
 * `transcript.page` (keyset on seq). References: the same page with LIMIT/OFFSET, to show what
 * depth would cost with offset paging, and JSON.parse of the page, the cost of merely decoding it.
 */
export async function measureTranscript(ctx: MeasureContext, sessionLength: number): Promise<ResultRow[]> {
  const middle = Math.floor(sessionLength / 2)
  const depths = [
    { label: 'start', input: { sessionId: ctx.bigSessionId, limit: LIMIT }, offset: 0, firstSeq: 0 },
    { label: `middle (seq ${middle})`, input: { sessionId: ctx.bigSessionId, limit: LIMIT, direction: 'after', cursor: String(middle - 1) }, offset: middle, firstSeq: middle },
    { label: 'end', input: { sessionId: ctx.bigSessionId, limit: LIMIT, direction: 'before' }, offset: sessionLength - LIMIT, firstSeq: sessionLength - LIMIT }
  ]
  const { rowId } = ctx.db.prepare('SELECT id AS rowId FROM sessions WHERE uid = ?').get(ctx.bigSessionId) as { rowId: number }
  const offsetSql = ctx.db.prepare(`SELECT id, seq, turn, role, content, tool_name, tool_call_id, tool_input, is_error, in_context, model,
      input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, created_at, source_ref
    FROM messages WHERE session_id = ? ORDER BY seq LIMIT ${LIMIT} OFFSET ?`)
  const rows: ResultRow[] = []
  for (const depth of depths) {
    const page = await call<Page>(ctx, 'transcript.page', depth.input)
    // Check we measure the page we think we do.
    if (page.items.length !== LIMIT || page.items[0]?.seq !== depth.firstSeq) {
      throw new Error(`transcript.page at ${depth.label} returned ${page.items.length} items from seq ${page.items[0]?.seq}`)
    }
    const json = JSON.stringify(page)
    const retrace = await repeatAsync(() => call(ctx, 'transcript.page', depth.input), ctx.repeat)
    const offset = repeatSync(() => offsetSql.all(rowId, depth.offset), ctx.repeat)
    const parse = repeatSync(() => JSON.parse(json) as unknown, ctx.repeat)
    rows.push({
      measure: `3. transcript.page, ${depth.label} of ${sessionLength.toLocaleString('en-US')}-message session (limit ${LIMIT}, ${kib(json)} KiB JSON)`,
      retrace: formatTiming(retrace),
      reference: `OFFSET ${depth.offset}: ${formatTiming(offset)}; JSON.parse of page: ${formatTiming(parse)}`,
      target: `≤ ${TARGET_MS} ms`,
      met: retrace.median <= TARGET_MS,
      n: String(retrace.n)
    })
  }
  return rows
}

function kib(json: string): string {
  return (Buffer.byteLength(json) / 1024).toFixed(0)
}
