import { useVirtualizer } from '@tanstack/react-virtual'
import { useRef, type CSSProperties, type ReactNode } from 'react'

/**
 * A scrolling list of code lines that renders only what is on screen, so a diff or file of
 * tens of thousands of lines opens as fast as a short one. Rows are measured (long lines wrap).
 */
export function VirtualLines<T>({
  rows,
  rowKey,
  renderRow,
  label,
  gutterDigits,
  testId
}: {
  rows: readonly T[]
  rowKey: (row: T) => string
  renderRow: (row: T) => ReactNode
  label: string
  /** Digits of the largest line number, to size the number columns once for every row. */
  gutterDigits: number
  testId?: string
}) {
  const scrollRef = useRef<HTMLDivElement>(null)
  // The React Compiler is not used in this build, so its memoization caveat does not apply.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 20,
    getItemKey: (index) => {
      const row = rows[index]
      return row === undefined ? index : rowKey(row)
    },
    overscan: 24
  })
  const style = { '--gutter-ch': `${Math.max(2, gutterDigits) + 1}ch` } as CSSProperties
  return (
    <div ref={scrollRef} className="code-lines" role="region" aria-label={label} tabIndex={0} style={style} data-testid={testId}>
      <div className="virtual-space" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]
          return (
            <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="virtual-row" style={{ transform: `translateY(${item.start}px)` }}>
              {row === undefined ? null : renderRow(row)}
            </div>
          )
        })}
      </div>
    </div>
  )
}

/** A line's code: highlighted HTML (escaped by highlight.js) or its plain text. */
export function CodeText({ text, html, noNewline }: { text: string; html: string | null; noNewline?: boolean }) {
  return (
    <code className="line-code">
      {/* highlight.js escapes the source text; the only markup is its own <span class>. */}
      {html !== null ? <span dangerouslySetInnerHTML={{ __html: html }} /> : text}
      {noNewline ? (
        <span className="no-newline" title="No newline at end of file">
          <span aria-hidden="true">⊘</span>
          <span className="visually-hidden">no newline at end of file</span>
        </span>
      ) : null}
    </code>
  )
}
