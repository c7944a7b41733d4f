import { isYAgentDataFolder } from './y-agent/discover'

/**
 * Why a workspace folder must not have files rewound in it, or null. A y-agent data folder opened
 * as a workspace shows the whole store, with each turn's file changes relative to the project the
 * agent worked in: rewinding there would write that project's files into y-agent's own folder.
 */
export function rewindRefusalForFolder(workspacePath: string): string | null {
  if (isYAgentDataFolder(workspacePath)) {
    return "This folder is y-agent's own data folder: its turns' files belong to the project the agent worked in. Open that project as a workspace to rewind them; here they can only be read."
  }
  return null
}
