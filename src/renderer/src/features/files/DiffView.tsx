import { useMemo, type ReactNode } from 'react'
import { highlight } from '../../ui/highlighter'
import { formatBytes, shortHash } from './changes'
import { buildDiffHunks, lineHtml, splitRows, unifiedRows, type DiffHunk, type DiffLine, type SplitCell, type SplitRow, type UnifiedRow } from './diff-rows'
import type { DiffMode } from './files-ui'
import { languageOfPath } from './language'
import type { DiffData } from './queries'
import { CodeText, VirtualLines } from './VirtualLines'

const SIGN = { add: '+', del: '−', context: ' ' } as const
const SPOKEN = { add: 'added', del: 'removed', context: '' } as const

/** A diff as the user asked for it (unified or side by side), or a notice when it has no lines to show. */
export function DiffView({ data, path, mode }: { data: DiffData; path: string; mode: DiffMode }) {
  if (data.binary) {
    return (
      <FileNotice title="Binary file: not shown as text">
        <VersionSizes before={data.before} after={data.after} />
      </FileNotice>
    )
  }
  if (data.tooLarge) {
    return (
      <FileNotice title="Too large to show as a diff">
        <p>Very large files (over 2 MB) are compared by size and hash only.</p>
        <VersionSizes before={data.before} after={data.after} />
      </FileNotice>
    )
  }
  if (data.tooManyChanges) {
    return (
      <div className="diff-too-many" data-testid="diff-too-many">
        <FileNotice title="Too many changes to diff by line">
          <p>Nearly every line differs, so the two versions are shown side by side instead: before on the left, after on the right.</p>
          <VersionSizes before={data.before} after={data.after} />
        </FileNotice>
        <DiffLines data={data} path={path} mode="split" plain />
      </div>
    )
  }
  if (data.link !== null) {
    return (
      <FileNotice title="Symbolic link">
        <p className="mono">{data.link}</p>
      </FileNotice>
    )
  }
  if (data.hunks.length === 0) {
    return (
      <FileNotice title="No change to the content">
        <VersionSizes before={data.before} after={data.after} />
      </FileNotice>
    )
  }
  return <DiffLines data={data} path={path} mode={mode} />
}

/** `plain`: no syntax colours (two whole versions of a large file would take the window seconds to colour). */
function DiffLines({ data, path, mode, plain = false }: { data: DiffData; path: string; mode: DiffMode; plain?: boolean }) {
  const language = plain ? null : languageOfPath(path)
  const hunks = useMemo(() => buildDiffHunks(data.hunks, language ? (code) => highlight(code, language) : null), [data.hunks, language])
  const digits = useMemo(() => String(maxLineNumber(hunks)).length, [hunks])
  const label = `Changes to ${path}`
  // Keyed by mode: the two layouts have different row heights, so each measures its own.
  return mode === 'unified' ? (
    <UnifiedLines key="unified" hunks={hunks} digits={digits} label={label} />
  ) : (
    <SplitLines key="split" hunks={hunks} digits={digits} label={label} />
  )
}

function UnifiedLines({ hunks, digits, label }: { hunks: DiffHunk[]; digits: number; label: string }) {
  const rows = useMemo(() => unifiedRows(hunks), [hunks])
  return <VirtualLines rows={rows} rowKey={(row) => row.key} renderRow={renderUnified} label={label} gutterDigits={digits} testId="diff-unified" />
}

function SplitLines({ hunks, digits, label }: { hunks: DiffHunk[]; digits: number; label: string }) {
  const rows = useMemo(() => splitRows(hunks), [hunks])
  return <VirtualLines rows={rows} rowKey={(row) => row.key} renderRow={renderSplit} label={label} gutterDigits={digits} testId="diff-split" />
}

function renderUnified(row: UnifiedRow) {
  if (row.type === 'hunk') return <HunkHeader header={row.header} />
  const { line } = row
  return (
    <div className={`diff-line diff-unified-line diff-${line.kind}`} data-kind={line.kind}>
      <span className="line-no">{line.oldNo ?? ''}</span>
      <span className="line-no">{line.newNo ?? ''}</span>
      <Sign kind={line.kind} />
      <CodeText text={line.text} html={lineHtml(line.colour)} noNewline={line.noNewline} />
    </div>
  )
}

function renderSplit(row: SplitRow) {
  if (row.type === 'hunk') return <HunkHeader header={row.header} />
  return (
    <div className="diff-line diff-split-line">
      <SplitHalf cell={row.left} side="before" />
      <SplitHalf cell={row.right} side="after" />
    </div>
  )
}

function SplitHalf({ cell, side }: { cell: SplitCell | null; side: 'before' | 'after' }) {
  if (!cell) return <div className={`diff-half diff-empty diff-${side}`} />
  return (
    <div className={`diff-half diff-${cell.kind} diff-${side}`} data-kind={cell.kind}>
      <span className="line-no">{cell.no}</span>
      <Sign kind={cell.kind} />
      <CodeText text={cell.text} html={lineHtml(cell.colour)} noNewline={cell.noNewline} />
    </div>
  )
}

function Sign({ kind }: { kind: DiffLine['kind'] }) {
  return (
    <span className="diff-sign">
      <span aria-hidden="true">{SIGN[kind]}</span>
      {SPOKEN[kind] ? <span className="visually-hidden">{SPOKEN[kind]}</span> : null}
    </span>
  )
}

function HunkHeader({ header }: { header: string }) {
  return <div className="diff-hunk">{header}</div>
}

function maxLineNumber(hunks: readonly DiffHunk[]): number {
  let max = 1
  for (const hunk of hunks) for (const line of hunk.lines) max = Math.max(max, line.oldNo ?? 0, line.newNo ?? 0)
  return max
}

export function FileNotice({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="file-notice" role="status" data-testid="file-notice">
      <p className="file-notice-title">{title}</p>
      {children}
    </div>
  )
}

type VersionRef = { hash: string; size: number } | null

/** "Before: 12.3 KB (ab12cd34) · After: 14.0 KB (ef56ab78)", absent sides said so. */
export function VersionSizes({ before, after }: { before: VersionRef; after: VersionRef }) {
  const side = (version: VersionRef, absent: string) =>
    version ? (
      <>
        {formatBytes(version.size)} <span className="mono muted">({shortHash(version.hash)})</span>
      </>
    ) : (
      <span className="muted">{absent}</span>
    )
  return (
    <dl className="version-sizes">
      <div>
        <dt>Before</dt>
        <dd>{side(before, 'did not exist')}</dd>
      </div>
      <div>
        <dt>After</dt>
        <dd>{side(after, 'deleted')}</dd>
      </div>
    </dl>
  )
}
