import { useEffect, type RefObject } from 'react'
import { textMatches } from './find-model'

const ALL = 'retrace-find'
const CURRENT = 'retrace-find-current'
/** Wait for the virtual list to settle its own scrolling before nudging a match into view. */
const REVEAL_DELAY_MS = 250

/**
 * Marks every occurrence of `query` in the rendered rows, and those in the current match's row
 * (`data-seq`) more strongly, with the CSS Custom Highlight API: no DOM is changed, so React's
 * rows and their markdown stay untouched. The virtual list mounts rows as the reader scrolls,
 * so the marks are recomputed whenever the rows change. Text is matched per row across inline
 * elements (code highlighting splits words into spans). When `revealKey` changes, the current
 * row's first match is scrolled into view if the row is taller than the viewport.
 */
export function useFindHighlights(scrollRef: RefObject<HTMLElement | null>, query: string, currentSeq: number | null, revealKey: number | null, mounted: boolean): void {
  useEffect(() => {
    const root = scrollRef.current
    const registry = typeof CSS !== 'undefined' && 'highlights' in CSS ? CSS.highlights : null
    if (!registry) return
    if (!root || !query || !mounted) {
      registry.delete(ALL)
      registry.delete(CURRENT)
      return
    }
    let frame = 0
    let revealPending = revealKey !== null
    let revealTimer = 0
    const paint = () => {
      frame = 0
      const all = new Highlight()
      const current = new Highlight()
      for (const row of root.querySelectorAll<HTMLElement>('[data-seq]')) {
        const isCurrent = currentSeq !== null && row.dataset.seq === String(currentSeq)
        for (const range of rangesIn(row, query)) (isCurrent ? current : all).add(range)
      }
      registry.set(ALL, all)
      registry.set(CURRENT, current)
      if (revealPending && current.size > 0) {
        revealPending = false
        revealTimer = window.setTimeout(() => reveal(root, current), REVEAL_DELAY_MS)
      }
    }
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(paint)
    }
    paint()
    const observer = new MutationObserver(schedule)
    observer.observe(root, { childList: true, subtree: true, characterData: true })
    return () => {
      observer.disconnect()
      cancelAnimationFrame(frame)
      window.clearTimeout(revealTimer)
      registry.delete(ALL)
      registry.delete(CURRENT)
    }
  }, [scrollRef, query, currentSeq, revealKey, mounted])
}

/** Ranges of `query` in an element's text, matched across the text nodes it is split into. */
function rangesIn(element: HTMLElement, query: string): Range[] {
  const nodes: Text[] = []
  const starts: number[] = []
  let text = ''
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push(node as Text)
    starts.push(text.length)
    text += node.nodeValue ?? ''
  }
  const ranges: Range[] = []
  let nodeIndex = 0
  for (const [start, end] of textMatches(text, query)) {
    while (nodeIndex + 1 < nodes.length && (starts[nodeIndex + 1] ?? Infinity) <= start) nodeIndex += 1
    let endIndex = nodeIndex
    while (endIndex + 1 < nodes.length && (starts[endIndex + 1] ?? Infinity) < end) endIndex += 1
    const startNode = nodes[nodeIndex]
    const endNode = nodes[endIndex]
    if (!startNode || !endNode) continue
    const range = document.createRange()
    range.setStart(startNode, start - (starts[nodeIndex] ?? 0))
    range.setEnd(endNode, end - (starts[endIndex] ?? 0))
    ranges.push(range)
  }
  return ranges
}

/** Scroll the first visible current match into the middle of the viewport, if it is outside it. */
function reveal(root: HTMLElement, current: Highlight): void {
  const view = root.getBoundingClientRect()
  for (const range of current) {
    if (!(range instanceof Range)) continue
    const rect = range.getBoundingClientRect()
    // Text inside a closed <details> has no box: skip it.
    if (rect.width === 0 && rect.height === 0) continue
    if (rect.top >= view.top && rect.bottom <= view.bottom) return
    root.scrollTop += rect.top - view.top - view.height / 3
    return
  }
}
