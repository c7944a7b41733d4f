// The face of continue (write a session back for its agent to resume): what the rest of the app may import.
export { ContinueButton } from './ContinueButton'
