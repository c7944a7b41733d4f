/** How the window and exports name a history source; an unknown one goes by its id. */
const SOURCE_LABELS: Record<string, string> = {
  native: 'Retrace',
  'claude-code': 'Claude Code',
  codex: 'Codex CLI',
  langgraph: 'LangGraph',
  cianaparrot: 'CianaParrot',
  'headless-agent': 'Headless agent',
  'code-buddy': 'Code Buddy',
  'y-agent': 'y-agent',
  cursor: 'Cursor',
  aider: 'Aider',
  'copilot-cli': 'Copilot CLI',
  cline: 'Cline',
  'gemini-cli': 'Gemini CLI',
  opencode: 'OpenCode'
}

export function sourceLabel(source: string): string {
  return SOURCE_LABELS[source] ?? source
}

/** What a branch that the agent's own history holds is called: the user went back inside the agent. */
export function rewoundInLabel(source: string): string {
  return `rewound in ${sourceLabel(source)}`
}

/** The turn a branch starting at display seq `forkSeq` starts in: the last turn that opened at or before it. */
export function turnAtSeq(checkpoints: readonly { turn: number; messagesBefore: number }[], forkSeq: number): number | undefined {
  return checkpoints.filter((checkpoint) => checkpoint.messagesBefore <= forkSeq).at(-1)?.turn
}
