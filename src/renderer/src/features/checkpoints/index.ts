// The face of checkpoints (rewind, undo, fork, merge): what the rest of the app may import.
export { DialogHost } from './DialogHost'
export { RecoveryNotice } from './RecoveryNotice'
export { TurnActions } from './TurnActions'
// The session dialogs' store: the transcript opens history, merge and export through it.
export { useDialogStore } from './dialog-store'
export { useRewindList } from './queries'
export { mergeUnavailableReason } from './branch-model'
export { UndoMergeButton } from './UndoMergeButton'
