// The face of imports: what the rest of the app may import from it.
export { ImportStatus } from './ImportStatus'
export { withProgress } from './import-model'
