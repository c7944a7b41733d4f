import { create } from 'zustand'
import type { ChangeGroup } from './changes'

export type DiffMode = 'unified' | 'split'
export type FileView = 'diff' | 'history' | 'blame'

/** A recorded version of a file the user asked to restore (from its history): a one-file rewind, previewed first. */
export interface RestoreRequest {
  workspaceId: number
  pathId: string
  path: string
  hash: string
  /** Which version, in words: "the file after turn 2 of “Fix the flaky date test”". */
  label: string
}

/** The file whose diff (or history) is open: a file row of one turn. */
export interface FileTarget {
  sessionId: string
  turn: number
  group: ChangeGroup
  view: FileView
  /** `data-file-button` of the row that opened it: focus goes back there on close. */
  returnFocus: string
}

interface FilesUi {
  diffMode: DiffMode
  target: FileTarget | null
  setDiffMode: (mode: DiffMode) => void
  openFile: (target: Omit<FileTarget, 'view'> & { view?: FileView }) => void
  setView: (view: FileView) => void
  closeFile: () => void
}

const MODE_KEY = 'retrace.diffMode'

function savedMode(): DiffMode {
  try {
    return localStorage.getItem(MODE_KEY) === 'split' ? 'split' : 'unified'
  } catch {
    return 'unified'
  }
}

/**
 * The open file dialog and the diff layout the user chose last (remembered across runs). Kept
 * outside the transcript's virtual rows, which unmount as they scroll away.
 */
export const useFilesUi = create<FilesUi>()((set) => ({
  diffMode: savedMode(),
  target: null,
  setDiffMode: (diffMode) => {
    try {
      localStorage.setItem(MODE_KEY, diffMode)
    } catch {
      // Not remembered; the toggle still works for now.
    }
    set({ diffMode })
  },
  openFile: (target) => set({ target: { view: 'diff', ...target } }),
  setView: (view) => set((state) => (state.target ? { target: { ...state.target, view } } : {})),
  closeFile: () => set({ target: null })
}))
