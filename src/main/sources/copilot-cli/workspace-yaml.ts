/**
 * Copilot CLI's `workspace.yaml` is a flat map of scalars it writes itself (`id: …`, `cwd: …`,
 * `summary: …`, `created_at: …`). No YAML parser is among Retrace's dependencies, and only a few
 * top-level keys are wanted: this reads `key: value` lines, unquoting plain, single- and
 * double-quoted scalars. Nested or multi-line values (block scalars) are not read.
 */
export function readWorkspaceYaml(text: string): Record<string, string> {
  const fields: Record<string, string> = {}
  let folding: string | null = null
  for (const line of text.split(/\r?\n/)) {
    // The YAML writer folds a long plain scalar onto indented lines: one space joins them.
    if (folding !== null && /^[ \t]+\S/.test(line)) {
      fields[folding] = `${fields[folding] ?? ''} ${line.trim()}`
      continue
    }
    folding = null
    const match = /^([A-Za-z_][A-Za-z0-9_]*):[ \t]*(.*)$/.exec(line)
    if (!match) continue
    const [, key, raw] = match as unknown as [string, string, string]
    const value = scalar(raw.trim())
    if (value === null || value === '') continue
    fields[key] = value
    if (!/^['"]/.test(raw.trim())) folding = key
  }
  return fields
}

function scalar(raw: string): string | null {
  if (raw === '' || raw === '|' || raw === '>' || raw.startsWith('|') || raw.startsWith('>')) return null
  if (raw.startsWith('"')) {
    try {
      return JSON.parse(raw.replace(/\s+#.*$/, '')) as string
    } catch {
      return raw.slice(1, raw.lastIndexOf('"') > 0 ? raw.lastIndexOf('"') : undefined)
    }
  }
  if (raw.startsWith("'")) {
    const end = raw.lastIndexOf("'")
    return (end > 0 ? raw.slice(1, end) : raw.slice(1)).replace(/''/g, "'")
  }
  if (raw === 'null' || raw === '~') return null
  // A plain scalar ends before a comment.
  return raw.replace(/\s+#.*$/, '')
}
