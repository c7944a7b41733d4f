import type { ReactFlowState } from '@xyflow/react'

/**
 * Level of detail by zoom. Below FAR a card shows only its title, large (the details would be
 * unreadable specks); below TINY — where even that is a smudge, edges are thinner than a
 * pixel and a fitted 2,000-session graph puts every card on screen — only the coloured card,
 * and no edges.
 */
export const FAR_ZOOM = 0.45
export const TINY_ZOOM = 0.15

export type Detail = 'full' | 'far' | 'tiny'

export function detailOf(zoom: number): Detail {
  return zoom >= FAR_ZOOM ? 'full' : zoom >= TINY_ZOOM ? 'far' : 'tiny'
}

export const detailAt = (state: ReactFlowState): Detail => detailOf(state.transform[2])
