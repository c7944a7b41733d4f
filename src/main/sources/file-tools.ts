import type { FileTools } from './adapter'
import { SOURCE_ADAPTERS } from './registry'

/**
 * A source's file-tools list: which of its agent's tools write, read or run commands, by the
 * names its format gives them (its agent folder's file-tools.ts, as its adapter carries it). The
 * record writer applies the accounting rule with it (docs/reliability.md R43). Undefined for a
 * source without one (Retrace's own sessions, an imported export).
 */
export function fileToolsOf(source: string): FileTools | undefined {
  return SOURCE_ADAPTERS.find((adapter) => adapter.name === source)?.fileTools
}
