// The face of tree: what the rest of the app may import from it.
export { SessionTree } from './SessionTree'
