// The face of workspace: what the rest of the app may import from it.
export { FirstScreen } from './FirstScreen'
export { WorkspaceView } from './WorkspaceView'
