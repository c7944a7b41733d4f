import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import type { Message } from '../../../../../shared/contract'
import { ToolCallBlock } from './ToolCallBlock'

// Real Claude Code sessions (see each set's PROVENANCE.txt), read as text by Vite.
import CODERABBIT from '../../../../../../fixtures/claude-code/claude-code-log/-Users-dain-workspace-coderabbit-review-helper/cb2e607c-c758-415a-8b45-c49e4631906a.jsonl?raw'
import DEEP_MANIFEST from '../../../../../../fixtures/claude-code/claude-code-log-turns/-src-deep-manifest/a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl?raw'
import DANIELDEMMEL from '../../../../../../fixtures/conformance/claude-code-log-danieldemmel/projects/-Users-dain-workspace-danieldemmel-me-next/f852ad25-1024-47da-964e-5eaae5bd6e6a.jsonl?raw'

// The window's UI store reads the system theme when first imported; Node has no window.
vi.hoisted(() => {
  Object.assign(globalThis, { window: { matchMedia: () => ({ matches: false, addEventListener: () => undefined }) } })
})

// DOMPurify needs a DOM, which Node lacks: here Markdown shows its source in a marked block (the
// e2e, in Chromium, checks the real rendering).
vi.mock('../markdown/Markdown', () => ({ Markdown: ({ text }: { text: string }) => <div className="markdown" data-testid="markdown-source">{text}</div> }))

interface Block {
  type?: string
  id?: string
  name?: string
  input?: Message['toolInput']
  tool_use_id?: string
  content?: unknown
  is_error?: boolean
}

const message = (fields: Partial<Message>): Message => ({
  id: 1,
  sessionId: 's',
  seq: 0,
  turn: 1,
  role: 'tool_call',
  content: '',
  toolName: null,
  toolCallId: null,
  toolInput: null,
  isError: false,
  model: null,
  usage: null,
  createdAt: null,
  inContext: true,
  sourceRef: null,
  ...fields
})

/** The calls of `tool` in a real file and their results (text results, as the importer keeps them), as transcript messages. */
function callsOf(jsonl: string, tool: string): { call: Message; result: Message | null }[] {
  const calls: Message[] = []
  const results = new Map<string, Message>()
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue
    const content = (JSON.parse(line) as { message?: { content?: unknown } }).message?.content
    if (!Array.isArray(content)) continue
    for (const block of content as Block[]) {
      if (block.type === 'tool_use' && block.name === tool) calls.push(message({ id: calls.length + 1, toolName: tool, toolCallId: block.id ?? null, toolInput: block.input ?? null }))
      if (block.type === 'tool_result' && typeof block.content === 'string' && block.tool_use_id)
        results.set(block.tool_use_id, message({ role: 'tool_result', content: block.content, toolCallId: block.tool_use_id, isError: block.is_error === true }))
    }
  }
  return calls.map((call) => ({ call, result: results.get(call.toolCallId ?? '') ?? null }))
}

const render = ({ call, result }: { call: Message; result: Message | null }) =>
  renderToStaticMarkup(<ToolCallBlock call={call} result={result} moreToLoad={false} focused={false} root="/Users/dain/workspace/coderabbit-review-helper" />)

describe('Claude Code interactive tools in the transcript', () => {
  it('shows a plan the user sent back as a plan card "not approved" with their words, never as raw JSON marked "error"', () => {
    const [rejected] = callsOf(CODERABBIT, 'ExitPlanMode')
    if (!rejected) throw new Error('no ExitPlanMode call')
    expect(rejected.result?.isError).toBe(true) // as Claude Code wrote it
    const html = render(rejected)
    expect(html).toContain('data-testid="plan-card"')
    expect(html).toContain('not approved')
    expect(html).not.toContain('badge-error')
    expect(html).not.toContain('data-testid="tool-call-input"')
    // The plan as Markdown, not "## Plan: …" inside a JSON string.
    expect(html).toMatch(/<div class="markdown" data-testid="markdown-source">## Plan: Make Project Installable as UV Tool\n/)
    expect(html).toContain('Let&#x27;s keep the name of the py file but change the pyproject script to reference it, otherwise gtg')
  })

  it('shows an approved plan as approved', () => {
    const [, approved] = callsOf(CODERABBIT, 'ExitPlanMode')
    if (!approved) throw new Error('no second ExitPlanMode call')
    const html = render(approved)
    expect(html).toContain('data-outcome="accepted"')
    expect(html).toContain('>approved<')
  })

  it('shows AskUserQuestion as its questions with their options, the chosen one marked, and the answer', () => {
    const [asked] = callsOf(DEEP_MANIFEST, 'AskUserQuestion')
    if (!asked) throw new Error('no AskUserQuestion call')
    const html = render(asked)
    expect(html).toContain('data-testid="question-card"')
    expect(html).toContain('>answered<')
    expect(html).toContain('Which tar formats should be supported?')
    expect(html.match(/data-testid="question-option"/g)?.length).toBeGreaterThanOrEqual(4)
    expect(html).toMatch(/data-testid="question-option" data-chosen="true"[^>]*>[\s\S]*?Yes, both filesystem and embedded/)
    // "Also .tgz" was typed, not one of the options: shown as the answer.
    expect(html).toMatch(/data-testid="question-answer"[^>]*>[\s\S]*?Also \.tgz/)
    expect(html).not.toContain('data-testid="tool-call-input"')
  })

  it('keeps a question Claude Code could not ask an error, with its text', () => {
    const [failed] = callsOf(CODERABBIT, 'AskUserQuestion')
    if (!failed) throw new Error('no AskUserQuestion call')
    const html = render(failed)
    expect(html).toContain('data-testid="question-card"')
    expect(html).toContain('badge-error')
    expect(html).toContain('No such tool available: AskUserQuestion')
  })

  it('shows TodoWrite as a checklist, each item with its status', () => {
    const todo = callsOf(DANIELDEMMEL, 'TodoWrite').find(({ call }) => JSON.stringify(call.toolInput).includes('"in_progress"') && JSON.stringify(call.toolInput).includes('"completed"'))
    if (!todo) throw new Error('no TodoWrite call with items done and in progress')
    const html = render(todo)
    expect(html).toContain('data-testid="todo-card"')
    const statuses = [...html.matchAll(/data-testid="todo-item" data-status="([a-z_]+)"/g)].map((match) => match[1])
    expect(statuses).toEqual((todo.call.toolInput as { todos: { status: string }[] }).todos.map((item) => item.status))
    expect(html).not.toContain('data-testid="tool-call-input"')
  })
})
