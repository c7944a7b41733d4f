// The face of export: what the rest of the app may import from it.
export { ExportDialog } from './ExportDialog'
export { OpenExport } from './OpenExport'
export { ExportWorkspaceButton } from './ExportWorkspaceButton'
