import { useStore, ViewportPortal, type ReactFlowState } from '@xyflow/react'
import { memo, useMemo } from 'react'
import { formatDateTime } from '../../lib/format'
import type { TimeTick } from './layout'
import { detailAt } from './lod'

/** How far left of the first lane the axis' labels sit, in graph pixels. */
export const AXIS_WIDTH = 112

/**
 * The time axis down the left of the graph: each day's name above its rows with a rule across
 * the lanes, and each new hour's time beside its first row. Drawn in the graph's own
 * coordinates (ViewportPortal), so it pans and zooms with the cards, re-rendering only when the
 * view moves a screen's height (visibleBand); zoomed far out only the days remain.
 */
export const TimeAxis = memo(function TimeAxis({ ticks, width }: { ticks: readonly TimeTick[]; width: number }) {
  const detail = useStore(detailAt)
  const band = useStore(visibleBand, sameBand)
  const shown = useMemo(() => ticksIn(ticks, band, detail), [ticks, band, detail])
  return (
    <ViewportPortal>
      <div className={`time-axis ${detail}`} data-testid="time-axis" aria-hidden="true">
        {shown.map((tick) => (
          <div
            key={`${tick.kind}:${tick.at}`}
            className={`time-tick time-tick-${tick.kind}`}
            data-testid={`time-tick-${tick.kind}`}
            title={formatDateTime(tick.at)}
            style={{ transform: `translate(${-AXIS_WIDTH}px, ${tick.y}px)`, width: tick.kind === 'day' ? width + AXIS_WIDTH : AXIS_WIDTH - 12 }}
          >
            {tick.label}
          </div>
        ))}
      </div>
    </ViewportPortal>
  )
})

/**
 * The stretch of the graph (in its own y) whose marks are in the DOM: what is in view and a
 * screen either side, snapped to whole screens so a pan re-renders the axis only every screen
 * or so. Thousands of marks left in the DOM made every layout the page did (React Flow measures
 * edge labels) cost more than the graph itself.
 */
function visibleBand(state: ReactFlowState): { from: number; to: number } {
  const [, y, zoom] = state.transform
  const screen = Math.max(1, state.height / zoom)
  const top = -y / zoom
  const from = Math.floor(top / screen) * screen - screen
  return { from, to: from + 4 * screen }
}

function sameBand(a: { from: number; to: number }, b: { from: number; to: number }): boolean {
  return a.from === b.from && a.to === b.to
}

function ticksIn(ticks: readonly TimeTick[], band: { from: number; to: number }, detail: string): TimeTick[] {
  return ticks.filter((tick) => tick.y >= band.from && tick.y <= band.to && (detail === 'full' || tick.kind === 'day'))
}
