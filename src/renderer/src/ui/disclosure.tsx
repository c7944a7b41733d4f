import { createContext, useCallback, useContext, useMemo, useState, type ReactNode, type SyntheticEvent } from 'react'

interface DisclosureState {
  isOpen(key: string): boolean | undefined
  setOpen(key: string, open: boolean): void
}

const DisclosureContext = createContext<DisclosureState | null>(null)

/**
 * Which <details> (reasoning, tool calls, summaries) the user opened, kept above the virtual
 * list: rows unmount when scrolled away, and an opened tool call must still be open when the
 * user scrolls back.
 */
export function DisclosureProvider({ children }: { children: ReactNode }) {
  const [open, setOpenMap] = useState<ReadonlyMap<string, boolean>>(new Map())
  const setOpen = useCallback((key: string, value: boolean) => {
    setOpenMap((previous) => (previous.get(key) === value ? previous : new Map(previous).set(key, value)))
  }, [])
  const value = useMemo<DisclosureState>(() => ({ isOpen: (key) => open.get(key), setOpen }), [open, setOpen])
  return <DisclosureContext.Provider value={value}>{children}</DisclosureContext.Provider>
}

/**
 * Props for a controlled <details>. `openByDefault` (e.g. it holds the message a search hit
 * points at) applies until the user toggles it themselves.
 */
export function useDisclosure(key: string, openByDefault = false) {
  const state = useContext(DisclosureContext)
  const open = state?.isOpen(key) ?? openByDefault
  return {
    open,
    onToggle: (event: SyntheticEvent<HTMLDetailsElement>) => {
      const next = event.currentTarget.open
      if (next !== open) state?.setOpen(key, next)
    }
  }
}

/**
 * Open state of a disclosure that is not a <details> (a button with aria-expanded, such as a
 * turn's file list), kept above the virtual list like the others.
 */
export function useDisclosureState(key: string, openByDefault = false): [boolean, (open: boolean) => void] {
  const state = useContext(DisclosureContext)
  const [local, setLocal] = useState(openByDefault)
  const open = state ? (state.isOpen(key) ?? openByDefault) : local
  const setOpen = useCallback((next: boolean) => (state ? state.setOpen(key, next) : setLocal(next)), [state, key])
  return [open, setOpen]
}
