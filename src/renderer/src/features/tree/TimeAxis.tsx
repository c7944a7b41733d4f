import { useStore, ViewportPortal } from '@xyflow/react'
import { memo } from 'react'
import { formatDateTime } from '../../lib/format'
import type { TimeTick } from './layout'
import { detailAt } from './lod'

/** How far left of the first lane the axis' labels sit, in graph pixels. */
export const AXIS_WIDTH = 112

/**
 * The time axis down the left of the graph: each day's name above its rows with a rule across
 * the lanes, and each new hour's time beside its first row. Drawn in the graph's own
 * coordinates (ViewportPortal), so it pans and zooms with the cards without re-rendering; zoomed
 * far out only the days remain.
 */
export const TimeAxis = memo(function TimeAxis({ ticks, width }: { ticks: readonly TimeTick[]; width: number }) {
  const detail = useStore(detailAt)
  const shown = detail === 'full' ? ticks : ticks.filter((tick) => tick.kind === 'day')
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
