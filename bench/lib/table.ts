/** One line of the results table. `met` is computed by the measure, against its target. */
export interface ResultRow {
  measure: string
  retrace: string
  reference: string
  target: string
  met: boolean | null
  n: string
}

/** A markdown table, so the output can be pasted into an issue note as it is. `referenceTitle` names the third column. */
export function renderTable(rows: ResultRow[], referenceTitle = 'reference (what)'): string {
  const header = ['measure', 'Retrace', referenceTitle, 'target', 'met?', 'N']
  const cells = rows.map((row) => [row.measure, row.retrace, row.reference, row.target, metLabel(row.met), row.n])
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => (line[column] ?? '').length)))
  const line = (values: string[]): string => `| ${values.map((value, column) => value.padEnd(widths[column] ?? 0)).join(' | ')} |`
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...cells.map(line)].join('\n')
}

function metLabel(met: boolean | null): string {
  if (met === null) return 'n/a'
  return met ? 'yes' : '**no**'
}
