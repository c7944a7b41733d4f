import { create } from 'zustand'

/** The session dialogs: at most one is open at a time (they are modal). */
export type SessionDialog =
  | { kind: 'rewind'; sessionId: string; turn: number }
  | { kind: 'undo'; sessionId: string; rewindId: string; /** Where Close leads: back to the history it was opened from. */ back: SessionDialog | null }
  | { kind: 'fork'; sessionId: string; turn: number }
  /** The files that differ between two checkpoints of a session, with their diffs. */
  | { kind: 'compare'; sessionId: string; turnCount: number; fromTurn: number; toTurn: number }
  /** A branch's (or sub-agent's) files against its parent's, after the same turn. */
  | { kind: 'compare-parent'; sessionId: string }
  /** "Restore this version" of one file, from its history: a one-file rewind. */
  | { kind: 'restore'; sessionId: string; workspaceId: number; pathId: string; path: string; hash: string; label: string }
  | { kind: 'history'; sessionId: string }
  | { kind: 'merge'; branchId: string; workspaceId: number }
  /** Export the session, or (from a turn) its conversation up to the end of that turn. */
  | { kind: 'export'; sessionId: string; throughTurn: number | null }

interface DialogState {
  dialog: SessionDialog | null
  /** The control that opened the first dialog: focus goes back to it when the last one closes. */
  opener: HTMLElement | null
  open: (dialog: SessionDialog) => void
  /** Swap the open dialog for another (from inside it), keeping where focus returns to. */
  replace: (dialog: SessionDialog) => void
  close: () => void
}

/**
 * Which session dialog is open. Kept outside the component that opens it: a turn's buttons live
 * in a virtual list row that may unmount (scrolling, new messages), and a fork selects another
 * session, yet the dialog — and an operation it is showing — must stay.
 */
export const useDialogStore = create<DialogState>()((set) => ({
  dialog: null,
  opener: null,
  open: (dialog) => set({ dialog, opener: openerOf(document.activeElement) }),
  replace: (dialog) => set({ dialog }),
  close: () => set({ dialog: null })
}))

/** Where focus returns: the control pressed, or for an item of a menu (closed by then), the menu's button. */
function openerOf(active: Element | null): HTMLElement | null {
  if (!(active instanceof HTMLElement)) return null
  return active.closest('details.header-menu')?.querySelector<HTMLElement>(':scope > summary') ?? active
}
