import { escapeHtml } from './html-escape'

/**
 * A unified diff as HTML: consecutive lines of one kind share one element (`<ins>` added,
 * `<del>` removed, `<span class="h">` hunk header, `<span>` context), so the markup grows with
 * the number of runs, not of lines, and the page stays close to the size of the diff.
 */
export function renderPatch(patch: string): string {
  const out: string[] = ['<pre class="diff">']
  let runKind = ''
  let run: string[] = []
  const flush = () => {
    if (run.length === 0) return
    const text = escapeHtml(run.join('\n'))
    if (runKind === '+') out.push(`<ins>${text}</ins>`)
    else if (runKind === '-') out.push(`<del>${text}</del>`)
    else if (runKind === '@') out.push(`<span class="h">${text}</span>`)
    else out.push(`<span>${text}</span>`)
    run = []
  }
  for (const line of patch.split('\n')) {
    const kind = lineKind(line)
    if (kind !== runKind) {
      flush()
      runKind = kind
    }
    run.push(line)
  }
  flush()
  out.push('</pre>')
  return out.join('')
}

function lineKind(line: string): string {
  const first = line.charAt(0)
  if (first === '+' || first === '-') return first
  if (line.startsWith('@@')) return '@'
  return ' '
}
