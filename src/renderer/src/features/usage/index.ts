// The face of usage: what the rest of the app may import from it.
export { UsageButton } from './UsageButton'
