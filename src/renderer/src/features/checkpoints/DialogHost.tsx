import { useEffect } from 'react'
import { CompareDialog, CompareParentDialog } from '../files'
import { ForkDialog } from './ForkDialog'
import { ExportDialog } from '../export'
import { MergeDialog } from './MergeDialog'
import { useDialogStore } from './dialog-store'
import { RewindDialog } from './RewindDialog'
import { RewindHistory } from './RewindHistory'

/**
 * Renders the open session dialog (rewind, undo, history, fork, merge, export). Mounted once beside
 * the transcript, so a dialog outlives the turn row that opened it and a fork's switch to the
 * new branch.
 */
export function DialogHost() {
  const dialog = useDialogStore((state) => state.dialog)
  const opener = useDialogStore((state) => state.opener)
  const close = useDialogStore((state) => state.close)
  const replace = useDialogStore((state) => state.replace)
  // Leaving the workspace (e.g. the browser's Back button) ends whatever dialog was open.
  useEffect(() => () => useDialogStore.getState().close(), [])
  if (!dialog) return null
  switch (dialog.kind) {
    case 'rewind':
      return <RewindDialog key={`rewind:${dialog.sessionId}:${dialog.turn}`} initial={{ kind: 'turn', sessionId: dialog.sessionId, turn: dialog.turn }} onClose={close} returnFocusTo={opener} />
    case 'undo':
      return (
        <RewindDialog
          key={`undo:${dialog.rewindId}`}
          initial={{ kind: 'undo', sessionId: dialog.sessionId, rewindId: dialog.rewindId }}
          onClose={() => (dialog.back ? replace(dialog.back) : close())}
          returnFocusTo={opener}
        />
      )
    case 'history':
      return (
        <RewindHistory
          sessionId={dialog.sessionId}
          onClose={close}
          onUndo={(rewindId) => replace({ kind: 'undo', sessionId: dialog.sessionId, rewindId, back: dialog })}
          returnFocusTo={opener}
        />
      )
    case 'compare':
      return <CompareDialog key={`compare:${dialog.sessionId}`} sessionId={dialog.sessionId} turnCount={dialog.turnCount} initial={dialog} onClose={close} returnFocusTo={opener} />
    case 'compare-parent':
      return <CompareParentDialog key={`compare-parent:${dialog.sessionId}`} sessionId={dialog.sessionId} onClose={close} returnFocusTo={opener} />
    case 'restore':
      return <RewindDialog key={`restore:${dialog.pathId}:${dialog.hash}`} initial={{ ...dialog, kind: 'version' }} onClose={close} returnFocusTo={opener} />
    case 'fork':
      return (
        <ForkDialog
          key={`fork:${dialog.sessionId}:${dialog.turn}`}
          sessionId={dialog.sessionId}
          turn={dialog.turn}
          onClose={close}
          onUndoFiles={(rewindId) => replace({ kind: 'undo', sessionId: dialog.sessionId, rewindId, back: null })}
          returnFocusTo={opener}
        />
      )
    case 'export':
      return <ExportDialog key={`export:${dialog.sessionId}:${dialog.throughTurn}`} sessionId={dialog.sessionId} throughTurn={dialog.throughTurn} onClose={close} returnFocusTo={opener} />
    case 'merge':
      return <MergeDialog key={`merge:${dialog.branchId}`} branchId={dialog.branchId} workspaceId={dialog.workspaceId} onClose={close} returnFocusTo={opener} />
  }
}
