// The face of sources: what the rest of the app may import from it.
export { SourcesButton } from './SourcesButton'
export { RetentionNotice } from './RetentionNotice'
export { WhereLooked } from './WhereLooked'
