import { isDeepStrictEqual } from 'node:util'
import type { AgentTarget } from './agent-targets'
import type { ConfigPlan } from './config-plan'
import { parseJsonc, removeAt, setAt, valueAt } from './jsonc-edit'
import { isRetraceMcpEntry, mcpServerCommand, type RetraceProgram } from './retrace-command'
import { appendTable, parseToml, removeAddedTable } from './toml-edit'

/** The name Retrace's MCP server is registered under in every agent. */
export const MCP_SERVER_NAME = 'retrace'
const JSON_PATH = ['mcpServers', MCP_SERVER_NAME]
const TOML_TABLE = ['mcp_servers', MCP_SERVER_NAME]

/**
 * Register `retrace mcp` in the agent's MCP settings (a JSON `mcpServers` entry, or Codex's
 * `[mcp_servers.retrace]` table). A server named retrace that runs something else is left alone.
 */
export function planMcpInstall(plan: ConfigPlan, target: AgentTarget, path: string, program: RetraceProgram): void {
  const { file, text } = plan.text(path)
  const entry = target.mcp.entry(mcpServerCommand(program))
  if (target.mcp.format === 'toml') {
    const existing = valueAt(parseToml(text, file), TOML_TABLE)
    if (isDeepStrictEqual(existing, entry)) return
    if (existing !== undefined) {
      const without = isRetraceMcpEntry(existing) ? removeAddedTable(text, TOML_TABLE, file) : undefined
      if (without === undefined) throw new Error(`${file} already has an MCP server named "${MCP_SERVER_NAME}" that Retrace did not add: left as it is.`)
      plan.edit(path, appendTable(without, TOML_TABLE, entry, file), `[mcp_servers.${MCP_SERVER_NAME}] updated to this Retrace`)
      return
    }
    plan.edit(path, appendTable(text, TOML_TABLE, entry, file), `MCP server "${MCP_SERVER_NAME}" added`)
    return
  }
  const existing = valueAt(parseJsonc(text.trim() === '' ? '{}' : text, file), JSON_PATH)
  if (isDeepStrictEqual(existing, entry)) return
  if (existing !== undefined && !isRetraceMcpEntry(existing)) throw new Error(`${file} already has an MCP server named "${MCP_SERVER_NAME}" that runs something else: left as it is.`)
  const edited = setAt(text, JSON_PATH, entry)
  plan.edit(path, edited.text, existing === undefined ? `MCP server "${MCP_SERVER_NAME}" added` : `MCP server "${MCP_SERVER_NAME}" updated to this Retrace`, edited.created)
}

/** Remove Retrace's MCP server, and the `mcpServers` object and the file if install created them. */
export function planMcpUninstall(plan: ConfigPlan, target: AgentTarget, path: string): void {
  const { file, text, exists } = plan.text(path)
  if (!exists || (target.mcp.format === 'json' && text.trim() === '')) return
  if (target.mcp.format === 'toml') {
    const existing = valueAt(parseToml(text, file), TOML_TABLE)
    if (existing === undefined) return
    const without = removeAddedTable(text, TOML_TABLE, file)
    if (without === undefined) throw new Error(`${file}: [mcp_servers.${MCP_SERVER_NAME}] was not added by Retrace (no "Added by retrace" line above it): left as it is.`)
    if (without.trim() === '' && plan.createdFile(path)) plan.remove(path, 'file removed (Retrace created it)')
    else plan.edit(path, without, `MCP server "${MCP_SERVER_NAME}" removed`)
    return
  }
  let document = parseJsonc(text, file)
  const existing = valueAt(document, JSON_PATH)
  if (existing === undefined) return
  if (!isRetraceMcpEntry(existing)) throw new Error(`${file}: the MCP server named "${MCP_SERVER_NAME}" runs something else than Retrace: left as it is.`)
  let edited = removeAt(text, JSON_PATH)
  plan.edit(path, edited, `MCP server "${MCP_SERVER_NAME}" removed`)
  document = parseJsonc(edited, file)
  const servers = valueAt(document, ['mcpServers'])
  if (servers && typeof servers === 'object' && Object.keys(servers).length === 0 && plan.createdPath(path, ['mcpServers'])) {
    edited = removeAt(edited, ['mcpServers'])
    plan.edit(path, edited, 'empty "mcpServers" removed')
    plan.uncreated(path, [['mcpServers']])
    document = parseJsonc(edited, file)
  }
  if (Object.keys(document as object).length === 0) plan.nothingLeft(path)
}

/** Whether Retrace's MCP server is registered in this file, and runs this Retrace. */
export function mcpState(text: string, file: string, target: AgentTarget, program: RetraceProgram | null): 'current' | 'other' | 'foreign' | null {
  const existing = target.mcp.format === 'toml' ? valueAt(parseToml(text, file), TOML_TABLE) : valueAt(parseJsonc(text.trim() === '' ? '{}' : text, file), JSON_PATH)
  if (existing === undefined) return null
  if (!isRetraceMcpEntry(existing)) return 'foreign'
  return program && isDeepStrictEqual(existing, target.mcp.entry(mcpServerCommand(program))) ? 'current' : 'other'
}
