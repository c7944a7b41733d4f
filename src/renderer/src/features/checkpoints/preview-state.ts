import { useEffect, useState } from 'react'
import { onEvent } from '../../api/client'
import type { ConflictChoice, Confirmations } from './plan-model'

// What a rewind preview's dialog keeps while it is open: progress, choices and ticks.

export interface Progress {
  done: number
  total: number
  path: string
}

/** Latest `rewind.progress` for a session while this component is mounted; `reset` before a new run. */
export function useRewindProgress(sessionId: string | null): [Progress | null, () => void] {
  const [progress, setProgress] = useState<Progress | null>(null)
  useEffect(
    () =>
      onEvent((event) => {
        if (event.name === 'rewind.progress' && event.payload.sessionId === sessionId) setProgress({ done: event.payload.done, total: event.payload.total, path: event.payload.path })
      }),
    [sessionId]
  )
  return [progress, () => setProgress(null)]
}

/** Choices per conflicting path, kept across "Preview again" (only this plan's conflicts are sent). */
export function useChoices(): [Map<string, ConflictChoice>, (pathIds: string[], choice: ConflictChoice) => void, () => void] {
  const [choices, setChoices] = useState(() => new Map<string, ConflictChoice>())
  const choose = (pathIds: string[], choice: ConflictChoice) =>
    setChoices((previous) => {
      const next = new Map(previous)
      for (const pathId of pathIds) next.set(pathId, choice)
      return next
    })
  return [choices, choose, () => setChoices(new Map())]
}

/**
 * The files the user ticked among those a preview says need confirmation, kept across "Preview
 * again" like the choices (only this plan's are sent: see buildConfirmed).
 */
export function useConfirmations(): [Confirmations, (pathId: string, confirmed: boolean) => void, () => void] {
  return useTicks()
}

/** A set of pathIds the user (un)ticked in a preview, kept across "Preview again" (see useConfirmations). */
export function useTicks(): [ReadonlySet<string>, (pathId: string, on: boolean) => void, () => void] {
  const [ticked, setTicked] = useState<ReadonlySet<string>>(() => new Set<string>())
  const tick = (pathId: string, on: boolean) =>
    setTicked((previous) => {
      const next = new Set(previous)
      if (on) next.add(pathId)
      else next.delete(pathId)
      return next
    })
  return [ticked, tick, () => setTicked(new Set<string>())]
}
