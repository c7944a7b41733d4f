import { useReactFlow, useStore, type FitViewOptions } from '@xyflow/react'
import { useEffect, type RefObject } from 'react'
import { AXIS_WIDTH } from './TimeAxis'

/** Below this zoom a card's text is too small to read: the graph opens on its newest rows instead of fitted. */
export const READABLE_ZOOM = 0.6
const OPEN_ZOOM = 0.85
/** Room above the graph for the toolbar panel (two rows), in screen pixels. */
const TOP_BAND = 96

/**
 * Until the user pans or zooms, keep the graph in view: fitted when the whole of it is readable
 * so, else its newest rows (the top) at a readable zoom with the time axis showing — the
 * minimap is the overview. Redone when the pane changes size (opening a transcript halves it)
 * or the graph changes (folding, a filter, a new session). Once the user has moved, the
 * viewport is theirs; the fit-view button hands it back. Lives inside <ReactFlow>.
 */
export function AutoFit({ moved, graph, options }: { moved: RefObject<boolean>; graph: { width: number; height: number }; options: FitViewOptions }) {
  const flow = useReactFlow()
  const width = useStore((state) => state.width)
  const height = useStore((state) => state.height)

  useEffect(() => {
    if (moved.current || width === 0 || height === 0) return
    const fits = Math.min(width / (graph.width + AXIS_WIDTH + 48), (height - TOP_BAND - 140) / (graph.height + 24))
    if (fits >= READABLE_ZOOM) void flow.fitView(options)
    else void flow.setViewport({ x: (AXIS_WIDTH + 16) * OPEN_ZOOM, y: TOP_BAND, zoom: OPEN_ZOOM })
  }, [flow, moved, graph, width, height, options])

  return null
}
