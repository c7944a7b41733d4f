import { useReactFlow, useStore } from '@xyflow/react'
import { useEffect, useRef } from 'react'

/**
 * Keep the selected session's node in view: when the selection changes from elsewhere (the
 * list, a link in a transcript) or the pane is resized (opening a transcript narrows it), an
 * off-screen node is brought to the centre, keeping the zoom so the user's place in the graph
 * is not thrown away. The selection the graph opened with is left to fitView. Lives inside
 * <ReactFlow> to reach its viewport.
 */
export function FollowSelection({ selectedId }: { selectedId: string | null }) {
  const flow = useReactFlow()
  const size = useStore((state) => ({ width: state.width, height: state.height }), (a, b) => a.width === b.width && a.height === b.height)
  const opened = useRef(selectedId)

  useEffect(() => {
    if (selectedId !== opened.current) opened.current = null
    if (!selectedId || opened.current !== null || size.width === 0) return
    const node = flow.getInternalNode(selectedId)
    if (!node) return
    const { x, y, zoom } = flow.getViewport()
    const width = node.measured.width ?? node.width ?? 0
    const height = node.measured.height ?? node.height ?? 0
    const { x: left, y: top } = node.internals.positionAbsolute
    const inView = left * zoom + x >= 0 && top * zoom + y >= 0 && (left + width) * zoom + x <= size.width && (top + height) * zoom + y <= size.height
    if (!inView) void flow.setCenter(left + width / 2, top + height / 2, { zoom: Math.max(zoom, 0.6), duration: 250 })
  }, [selectedId, flow, size])

  return null
}
