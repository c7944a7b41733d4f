import { create } from 'zustand'
import type { TranscriptKind } from '../../../shared/contract'
import { initialSessionView, saveSessionView, type SessionView } from './session-view'
import { initialTheme, saveTheme, type Theme } from './theme'

/**
 * What to bring into view once its page is loaded: a message (a search hit, a find match) or
 * a turn's header (jump to turn, j / k).
 */
export type FocusTarget = {
  sessionId: string
  /** Changes on every request, so clicking the same hit twice scrolls again. */
  nonce: number
  /** Flash the row when it arrives (not for find matches, which are highlighted instead). */
  flash: boolean
} & ({ kind: 'message'; seq: number } | { kind: 'turn'; turn: number })

let nonces = 0
/** Unique per request, even for two in the same millisecond (j pressed quickly). */
const nextNonce = () => Date.now() * 1000 + (nonces++ % 1000)

export interface UiState {
  workspaceId: number | null
  sessionId: string | null
  transcriptMode: TranscriptKind
  theme: Theme
  /** List or graph of the workspace's sessions (remembered across runs). */
  sessionView: SessionView
  /** Sessions whose sub-agents the graph shows folded into them (per open workspace). */
  collapsedSubAgents: ReadonlySet<string>
  /** List and graph also show warm-ups (an agent's start-up work), hidden by default. */
  showWarmups: boolean
  /** The transcript shows Claude Code's internals (caveats, local commands, hook output, system reminders) dimmed, not folded. */
  showInternals: boolean
  focus: FocusTarget | null
  /** Set when the server refuses our token: the whole app is replaced by an explanation. */
  authProblem: string | null

  openWorkspace: (workspaceId: number) => void
  closeWorkspace: () => void
  selectSession: (sessionId: string | null) => void
  /** Jump to one message of a session, possibly in another workspace. */
  openMessage: (target: { workspaceId: number; sessionId: string; seq: number }) => void
  /** Bring a message or a turn of the open session into view, in the transcript shown now. */
  focusInSession: (target: { sessionId: string; flash?: boolean } & ({ kind: 'message'; seq: number } | { kind: 'turn'; turn: number })) => void
  clearFocus: () => void
  setTranscriptMode: (mode: TranscriptKind) => void
  toggleTheme: () => void
  setSessionView: (view: SessionView) => void
  toggleSubAgents: (sessionId: string) => void
  setCollapsedSubAgents: (sessionIds: ReadonlySet<string>) => void
  toggleWarmups: () => void
  toggleInternals: () => void
  setAuthProblem: (message: string) => void
}

const noCollapsed: ReadonlySet<string> = new Set()

/**
 * UI state only (what is selected and how it is shown); anything the server owns lives in
 * TanStack Query. Components read it through narrow selectors so a change re-renders only
 * what depends on it.
 */
export const useUiStore = create<UiState>()((set, get) => ({
  workspaceId: null,
  sessionId: null,
  transcriptMode: 'display',
  theme: initialTheme(),
  sessionView: initialSessionView(),
  collapsedSubAgents: noCollapsed,
  showWarmups: false,
  showInternals: false,
  focus: null,
  authProblem: null,

  openWorkspace: (workspaceId) => {
    if (get().workspaceId === workspaceId) return
    set({ workspaceId, sessionId: null, focus: null, collapsedSubAgents: noCollapsed })
  },
  closeWorkspace: () => set({ workspaceId: null, sessionId: null, focus: null, collapsedSubAgents: noCollapsed }),
  selectSession: (sessionId) => set({ sessionId, focus: null }),
  openMessage: ({ workspaceId, sessionId, seq }) => {
    const sameWorkspace = get().workspaceId === workspaceId
    set({
      workspaceId,
      sessionId,
      // Search hits carry display seqs; a message may not be in the context transcript.
      transcriptMode: 'display',
      focus: { sessionId, kind: 'message', seq, nonce: nextNonce(), flash: true },
      ...(sameWorkspace ? {} : { collapsedSubAgents: noCollapsed })
    })
  },
  focusInSession: ({ flash = true, ...target }) => set({ focus: { ...target, flash, nonce: nextNonce() } }),
  clearFocus: () => set({ focus: null }),
  setTranscriptMode: (transcriptMode) => set({ transcriptMode, focus: null }),
  toggleTheme: () => {
    const theme = get().theme === 'dark' ? 'light' : 'dark'
    saveTheme(theme)
    set({ theme })
  },
  setSessionView: (sessionView) => {
    saveSessionView(sessionView)
    set({ sessionView })
  },
  toggleSubAgents: (sessionId) => {
    const next = new Set(get().collapsedSubAgents)
    if (!next.delete(sessionId)) next.add(sessionId)
    set({ collapsedSubAgents: next })
  },
  setCollapsedSubAgents: (collapsedSubAgents) => set({ collapsedSubAgents }),
  toggleWarmups: () => set({ showWarmups: !get().showWarmups }),
  toggleInternals: () => set({ showInternals: !get().showInternals }),
  setAuthProblem: (authProblem) => set({ authProblem })
}))
