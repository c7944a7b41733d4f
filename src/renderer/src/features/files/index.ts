// The face of files (a turn's changes, diffs, versions, history): what the rest of the app may import.
export { ChangeRow } from './ChangeRow'
export { CompareDialog } from './CompareDialog'
export { CompareParentDialog } from './CompareParentDialog'
export { compareWithParentReason } from './compare-parent'
export { DiffView, FileNotice } from './DiffView'
export { FileDialogHost } from './FileDialog'
export { fileButtonId, TurnFiles } from './TurnFiles'
export { VersionView } from './VersionView'
export { groupTurnChanges } from './changes'
// The open file dialog's store: a replayed turn's files open the same dialog.
export { useFilesUi, type RestoreRequest } from './files-ui'
export { fromServer as diffDataFromServer, useFileVersion, useNetCounts, useTurnChanges, useVersionsDiff, type DiffData } from './queries'
