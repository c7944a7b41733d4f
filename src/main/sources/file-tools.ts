import type { FileTools } from './adapter'
import { fileTools as cursor } from './cursor/file-tools'
import { fileTools as langgraph } from './langgraph/file-tools'
import { fileTools as opencode } from './opencode/file-tools'
import { SOURCE_ADAPTERS } from './registry'

/** The lists of sources whose adapter does not carry its own `fileTools` yet. */
const NOT_ON_THE_ADAPTER: Record<string, FileTools> = { cursor, langgraph, opencode }

/**
 * A source's file-tools list: which of its agent's tools write, read or run commands, by the
 * names its format gives them (its agent folder's file-tools.ts, as its adapter carries it). The
 * record writer applies the accounting rule with it (docs/reliability.md R43). Undefined for a
 * source without one (Retrace's own sessions, an imported export).
 */
export function fileToolsOf(source: string): FileTools | undefined {
  return SOURCE_ADAPTERS.find((adapter) => adapter.name === source)?.fileTools ?? NOT_ON_THE_ADAPTER[source]
}
