import { OP_LABEL, type ChangeOp } from './changes'
import { TOO_MANY_CHANGES } from '../../../../shared/line-diff-limits'

/** A file's change as a small coloured word: created, modified, deleted, renamed. */
export function OpBadge({ op }: { op: ChangeOp }) {
  return <span className={`file-op file-op-${op}`}>{OP_LABEL[op]}</span>
}

/** "+12 −4", nothing when the counts are unknown (binary, very large, not loaded yet), or why past the line diff's bounds. */
export function LineCounts({ added, removed, tooManyChanges = false }: { added: number | null; removed: number | null; tooManyChanges?: boolean }) {
  if (tooManyChanges) return <span className="line-counts line-counts-unknown">{TOO_MANY_CHANGES}</span>
  if (added === null || removed === null) return null
  return (
    <span className="line-counts" aria-label={`${added} added, ${removed} removed`}>
      <span className="lines-added">+{added}</span> <span className="lines-removed">−{removed}</span>
    </span>
  )
}

/** A path with its folder muted and its name in full weight. */
export function PathText({ path }: { path: string }) {
  const slash = path.lastIndexOf('/')
  return (
    <span className="path-text">
      {slash >= 0 ? <span className="path-dir">{path.slice(0, slash + 1)}</span> : null}
      <span className="path-name">{path.slice(slash + 1)}</span>
    </span>
  )
}
