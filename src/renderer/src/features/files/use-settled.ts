import { useEffect, useState } from 'react'

/**
 * True once the component has stayed mounted for `ms`. Virtual rows mount only near the
 * viewport; waiting a moment more keeps the rows a fast scroll flies past from querying.
 */
export function useSettled(ms: number): boolean {
  const [settled, setSettled] = useState(false)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(true), ms)
    return () => clearTimeout(timer)
  }, [ms])
  return settled
}
