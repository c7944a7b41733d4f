import { useReactFlow, useStore, type FitViewOptions } from '@xyflow/react'
import { useEffect, type RefObject } from 'react'

/**
 * Until the user pans or zooms, keep the whole graph in view: when the pane changes size
 * (opening a transcript halves it) or the graph changes (folding, a new session). Once they
 * have moved, their viewport is theirs; the fit-view button hands it back. Lives inside
 * <ReactFlow> to reach its viewport.
 */
export function AutoFit({ moved, graph, options }: { moved: RefObject<boolean>; graph: unknown; options: FitViewOptions }) {
  const flow = useReactFlow()
  const width = useStore((state) => state.width)
  const height = useStore((state) => state.height)

  useEffect(() => {
    if (moved.current || width === 0 || height === 0) return
    void flow.fitView(options)
  }, [flow, moved, graph, width, height, options])

  return null
}
