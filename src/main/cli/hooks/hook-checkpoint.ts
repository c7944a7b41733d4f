import { hookWorkingFolder, parseHookInput, readHookStdin } from '../../agent-hooks/hook-input'
import { captureHookTurn } from '../../runtime/hook-turn'
import type { Runtime } from '../../runtime/runtime'

/**
 * `retrace checkpoint begin|end --hook AGENT` in the hook's own process, as an agent's hook runs
 * it when no running Retrace took the turn (bin/retrace.js tries that first). A hook must never
 * break the agent: it reads the agent's own input from stdin, prints nothing but what the agent
 * expects there (Claude Code and Codex add a hook's output to the model's context; Gemini CLI
 * shows it), always exits 0, and logs what happened (runtime/hook-turn.ts).
 */
export async function hookCheckpointCommand(options: {
  agent: string
  phase: string
  dataDir: string
  env: NodeJS.ProcessEnv
  open: () => Promise<Runtime>
  answer: (text: string) => void
  stdin?: NodeJS.ReadStream
  /** The agent's input, when bin/retrace.js read it already (trying to hand the turn over). */
  input?: { payload: unknown }
}): Promise<number> {
  const payload = options.input ? options.input.payload : parseHookInput(await readHookStdin(options.stdin))
  const request = { agent: options.agent, phase: options.phase, payload, cwd: hookWorkingFolder(), env: options.env }
  const { answer } = await captureHookTurn(request, { dataDir: options.dataDir, open: options.open, via: 'hook' })
  if (answer) options.answer(answer)
  return 0
}
