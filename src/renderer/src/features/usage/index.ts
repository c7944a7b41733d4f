// The face of usage: what the rest of the app may import from it.
export { AllUsageButton } from './AllUsageButton'
export { UsageButton } from './UsageButton'
