import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { answersIn, cardSummary, interactiveCard, outcomeLabel, todoProgress, type InteractiveCard } from '../../../shared/interactive-tools'
import type { MessageRecord } from '../records'
import { createClaudeCodeParser } from './parser'

// Real Claude Code sessions (see each set's PROVENANCE.txt).
const FIXTURES = join(__dirname, '../../../../fixtures')
const DEEP_MANIFEST = 'claude-code/claude-code-log-turns/-src-deep-manifest/a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl' // 2.0.55
const CODERABBIT = 'claude-code/claude-code-log/-Users-dain-workspace-coderabbit-review-helper/cb2e607c-c758-415a-8b45-c49e4631906a.jsonl' // 2.0.37
const DANIELDEMMEL = 'conformance/claude-code-log-danieldemmel/projects/-Users-dain-workspace-danieldemmel-me-next/f852ad25-1024-47da-964e-5eaae5bd6e6a.jsonl' // 1.0.128
const SPOTTER = 'claude-code/spotter/subagent.jsonl' // 2.1.38

/** Each call of `tool` in a real file with its paired result, as the Claude Code importer reads them, made into its card. */
function cardsOf(file: string, tool: string): InteractiveCard[] {
  const parser = createClaudeCodeParser()
  const records: MessageRecord[] = []
  let offset = 0
  for (const line of readFileSync(join(FIXTURES, file), 'utf8').split('\n')) {
    if (line.trim()) for (const record of parser.feed(line, offset)) if (record.kind === 'message') records.push(record)
    offset += Buffer.byteLength(line) + 1
  }
  const calls = records.filter((record) => record.role === 'tool_call' && record.toolName === tool)
  expect(calls.length, `${tool} calls in ${file}`).toBeGreaterThan(0)
  return calls.map((call) => {
    const result = records.find((record) => record.role === 'tool_result' && record.toolCallId === call.toolCallId)
    const card = interactiveCard(tool, call.toolInput, result ? { content: result.content, isError: result.isError === true } : null)
    if (!card) throw new Error(`no card for the ${tool} call ${call.toolCallId} in ${file}`)
    return card
  })
}

describe('Claude Code interactive tools as cards, from real sessions', () => {
  it('reads AskUserQuestion as its questions, options and the answers the user picked', () => {
    const [first, second] = cardsOf(DEEP_MANIFEST, 'AskUserQuestion')
    expect(first).toMatchObject({ kind: 'question', outcome: 'accepted', reply: null })
    if (first?.kind !== 'question' || second?.kind !== 'question') throw new Error('not question cards')
    expect(first.questions.map((q) => [q.header, q.answer])).toEqual([
      ['Filesystem tar', 'Yes, both filesystem and embedded'],
      ['Tar formats', 'Also .tgz']
    ])
    expect(first.questions[0]?.options.map((o) => o.label)).toEqual(['Yes, both filesystem and embedded', 'Only embedded tar archives'])
    expect(first.questions[0]?.options[1]?.description).toBe('Only process tar archives when found inside ZIP files or other archives')
    expect(second.questions).toHaveLength(1)
    expect(second.questions[0]?.answer).toBe('Option C: Extra field')
    expect(outcomeLabel(first)).toBe('answered')
    expect(cardSummary(first)).toBe('Should tar archives found in the filesystem (not just embedded) also be processed recursively like ZIP files are? (+1 more)')
  })

  it('reads the answers of a 2.1 sub-agent question, and of a question whose text holds quotes and a dash', () => {
    const [card] = cardsOf(SPOTTER, 'AskUserQuestion')
    if (card?.kind !== 'question') throw new Error('not a question card')
    expect(card.questions.map((q) => q.answer)).toEqual(['No rig', 'Credo + Dialyxir + mix_audit'])
    expect(card.questions[0]?.question).toContain("should I use 'spotter'?")
  })

  it('tells a plan sent back by the user (is_error in the file) from a failure: "not approved", with what the user said', () => {
    const [rejected, approved] = cardsOf(CODERABBIT, 'ExitPlanMode')
    expect(rejected).toMatchObject({ kind: 'plan', outcome: 'declined', reply: "Let's keep the name of the py file but change the pyproject script to reference it, otherwise gtg" })
    expect(rejected && outcomeLabel(rejected)).toBe('not approved')
    expect(rejected?.kind === 'plan' && rejected.plan?.startsWith('## Plan: Make Project Installable as UV Tool')).toBe(true)
    expect(approved).toMatchObject({ kind: 'plan', outcome: 'accepted' })
    expect(approved && outcomeLabel(approved)).toBe('approved')
    expect(approved && cardSummary(approved)).toBe('Plan: Make Project Installable as UV Tool')
  })

  it('reads every plan of a 1.0 session: two sent back without a word, two approved', () => {
    const cards = cardsOf(DANIELDEMMEL, 'ExitPlanMode')
    expect(cards.map((card) => [card.outcome, card.kind === 'plan' ? card.reply : 'x'])).toEqual([
      ['declined', null],
      ['accepted', null],
      ['declined', null],
      ['accepted', null]
    ])
  })

  it('keeps the file a 2.0.55 approval saved the plan to', () => {
    const approved = cardsOf(DEEP_MANIFEST, 'ExitPlanMode').filter((card) => card.outcome === 'accepted')
    expect(approved.length).toBeGreaterThan(0)
    for (const card of approved) expect(card).toMatchObject({ kind: 'plan', planFile: '/home/cboos/.claude/plans/humble-doodling-wolf.md' })
  })

  it('shows a 2.1 plan whose text is only in its file (empty input) as approved, without inventing a text', () => {
    const [card] = cardsOf(SPOTTER, 'ExitPlanMode')
    expect(card).toMatchObject({ kind: 'plan', plan: null, outcome: 'accepted' })
    expect(card && cardSummary(card)).toBe('plan kept outside the transcript')
  })

  it('keeps a real failure a failure: the 2.0.37 question Claude Code did not have', () => {
    const [card] = cardsOf(CODERABBIT, 'AskUserQuestion')
    expect(card).toMatchObject({ kind: 'question', outcome: 'failed', reply: 'Error: No such tool available: AskUserQuestion' })
    expect(card?.kind === 'question' && card.questions[0]?.question).toMatch(/^I need to understand your preferred installation approach/)
    expect(card && outcomeLabel(card)).toBe('error')
  })

  it('reads TodoWrite as a checklist with each item’s status', () => {
    const cards = cardsOf(DANIELDEMMEL, 'TodoWrite')
    const card = cards.find((c) => c.kind === 'todos' && c.todos.some((todo) => todo.status === 'in_progress'))
    if (card?.kind !== 'todos') throw new Error('no checklist with an item in progress')
    expect(card.outcome).toBe('accepted')
    expect(new Set(cards.flatMap((c) => (c.kind === 'todos' ? c.todos.map((todo) => todo.status) : [])))).toEqual(new Set(['pending', 'in_progress', 'completed']))
    const current = card.todos.find((todo) => todo.status === 'in_progress')
    expect(cardSummary(card)).toBe(`${todoProgress(card.todos)} · ${current?.activeForm}`)
  })
})

describe('answersIn', () => {
  it('finds each answer by its question, even when an answer holds commas and quotes', () => {
    const content = 'User has answered your questions: "Which, exactly?"="a, \\"b\\"", "Next?"="c". You can now continue with the user\'s answers in mind.'
    expect(answersIn(content, ['Which, exactly?', 'Next?', 'Not asked?'])).toEqual(['a, \\"b\\"', 'c', null])
  })
})
