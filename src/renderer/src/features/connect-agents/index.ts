// The face of connect-agents: what the rest of the app may import from it.
export { ConnectAgentsButton } from './ConnectAgentsButton'
