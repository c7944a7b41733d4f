import { cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { contractCaller, importTestbed } from '../testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-codex-vscode-')

// A real Codex Desktop rollout (0.128, fixtures/codex/codemie/PROVENANCE.txt): its first prompt
// is the extension's "# Files mentioned by the user:" preamble, then "## My request for Codex:".
const DESKTOP = '2026/05/11/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl'
const DESKTOP_ID = '019e1695-0522-7c83-8b39-0dd379793f80'

/**
 * The title rollout the VS Code extension (0.89) runs beside every thread, `source: "exec"`. No
 * whole one is public: its lines are those a project's notes quote from a real
 * ~/.codex/sessions (their first 200 characters), completed with the prompt Codex's title
 * generator sends (quoted in several public tools that filter these rollouts out).
 */
const TITLE_ID = '019bf5cc-83c4-7610-bad0-c7b3b9f3167c'
const TITLE_PROMPT = [
  'You are a helpful assistant. You will be presented with a user prompt, and your job is to provide a short title for a task that will be created from that prompt.',
  'The tasks typically have to do with coding-related tasks, for example requests for bug fixes or questions about a codebase. The title you generate will be shown in the UI to represent the prompt.',
  'Generate a concise UI title (18-36 characters) for this task.',
  'Return only the title. No quotes or trailing punctuation.',
  '',
  'User prompt:',
  'add realtime monitoring to the workflow page'
].join('\n')
function titleRollout(cwd: string): string {
  const at = '2026-01-25T15:36:19.669Z'
  const item = (role: string, text: string) => ({ timestamp: at, type: 'response_item', payload: { type: 'message', role, content: [{ type: 'input_text', text }] } })
  return [
    { timestamp: at, type: 'session_meta', payload: { id: TITLE_ID, timestamp: '2026-01-25T15:36:19.652Z', cwd, originator: 'codex_vscode', cli_version: '0.89.0', source: 'exec', model_provider: 'openai' } },
    item('user', `<environment_context>\n <cwd>${cwd}</cwd>\n <shell>bash</shell>\n</environment_context>`),
    item('user', TITLE_PROMPT),
    { timestamp: '2026-01-25T15:36:19.670Z', type: 'event_msg', payload: { type: 'user_message', message: TITLE_PROMPT, images: [] } },
    { timestamp: '2026-01-25T15:36:19.670Z', type: 'turn_context', payload: { cwd, approval_policy: 'never', sandbox_policy: { type: 'read-only' }, model: 'gpt-5.1-codex-mini' } },
    { timestamp: '2026-01-25T15:36:20.400Z', type: 'event_msg', payload: { type: 'agent_message', message: 'Add realtime workflow monitoring' } },
    { timestamp: '2026-01-25T15:36:20.400Z', type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Add realtime workflow monitoring' }] } }
  ]
    .map((line) => JSON.stringify(line))
    .join('\n')
}

describe('the Codex VS Code extension and Desktop app', () => {
  it('titles a thread by the request under "## My request for Codex:", not by the preamble', async () => {
    const home = join(tempDir(), 'codex')
    cpSync(join(FIXTURES, 'codex/codemie/sessions', DESKTOP), join(home, 'sessions', DESKTOP), { recursive: true })
    const rt = runtime({ codex: home })
    const workspaceId = rt.store.workspaces.open('/Users/Sample_User/naya', 'naya')
    await rt.imports.importWorkspace(workspaceId)
    const session = rt.store.sessions.bySourceId(workspaceId, 'codex', DESKTOP_ID)
    expect(session?.title).toBe('analyze trascript and summarzie action items related to codemie and demo preapr…')
    // The prompt itself keeps what the user attached.
    const detail = await contractCaller(rt)('sessions.get', { sessionId: session?.id ?? '' })
    expect(detail.title).toBe(session?.title)
  })

  it('hides its title-generation rollouts like warm-ups', async () => {
    const home = join(tempDir(), 'codex')
    const cwd = join(tempDir(), 'base-shop')
    mkdirSync(join(home, 'sessions/2026/01/25'), { recursive: true })
    writeFileSync(join(home, 'sessions/2026/01/25', `rollout-2026-01-25T16-36-19-${TITLE_ID}.jsonl`), `${titleRollout(cwd)}\n`)
    const rt = runtime({ codex: home })
    const workspaceId = rt.store.workspaces.open(cwd, 'shop')
    await rt.imports.importWorkspace(workspaceId)
    const listed = await contractCaller(rt)('sessions.list', { workspaceId })
    expect(listed.items).toEqual([])
    expect(listed.hiddenWarmups).toBe(1)
    expect(rt.store.sessions.bySourceId(workspaceId, 'codex', TITLE_ID)).toMatchObject({ warmup: true })
  })
})
