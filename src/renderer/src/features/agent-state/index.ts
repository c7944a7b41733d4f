// The face of agent-state: what the rest of the app may import from it.
export { AgentStateButton } from './AgentStateButton'
