// The face of sessions: what the rest of the app may import from it.
export { SessionPanel } from './SessionPanel'
export { SessionViewToggle } from './SessionViewToggle'
export { WarmupToggle } from './WarmupToggle'
export { useSessionDetail } from './queries'
export { SessionFilters } from './SessionFilters'
