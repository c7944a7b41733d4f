// The face of search: what the rest of the app may import from it.
export { GlobalSearch } from './GlobalSearch'
