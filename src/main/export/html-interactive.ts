import { cardSummary, chosenOptions, outcomeLabel, todoProgress, type AskedQuestion, type InteractiveCard } from '../../shared/interactive-tools'
import type { ExportMessage } from './document-schema'
import { escapeHtml } from './html-escape'
import { markdownToSafeHtml } from './html-markdown'

const KIND_LABEL: Record<InteractiveCard['kind'], string> = { question: 'Question', plan: 'Plan', todos: 'Checklist' }
const TODO_MARK = { pending: '○', in_progress: '◐', completed: '●' } as const

/**
 * A Claude Code question, plan or checklist as the window shows it (shared/interactive-tools.ts):
 * the questions and the answers, the plan as Markdown and what the user decided, the items and
 * their status. Questions and plans are open; a checklist stays folded to its progress.
 */
export function renderInteractiveCall(call: ExportMessage, card: InteractiveCard, out: string[]): void {
  const label = outcomeLabel(card)
  const badge = label === null ? '' : card.outcome === 'failed' ? `<span class="err">${label}</span>` : `<span class="badge${card.outcome === 'accepted' ? ' ok' : ''}">${label}</span>`
  out.push(
    `<details class="m tool card"${card.kind === 'todos' ? '' : ' open'}><summary><span class="tn">${escapeHtml(call.toolName ?? KIND_LABEL[card.kind])}</span>` +
      `<span class="gist">${escapeHtml(KIND_LABEL[card.kind])}: ${escapeHtml(cardSummary(card))}</span>${badge}</summary><div class="body">`
  )
  if (card.kind === 'question') for (const question of card.questions) renderQuestion(question, out)
  else if (card.kind === 'plan') {
    out.push(card.plan ? `<div class="md plan">${markdownToSafeHtml(card.plan)}</div>` : `<div class="note">Claude Code kept this plan in a file of its own${card.planFile ? ` (${escapeHtml(card.planFile)})` : ''}, not in the transcript.</div>`)
  } else {
    out.push(`<div class="label">${escapeHtml(todoProgress(card.todos))}</div><ul class="todos">`)
    for (const todo of card.todos) out.push(`<li class="todo ${todo.status}"><span class="mark">${TODO_MARK[todo.status]}</span>${escapeHtml(todo.content)}</li>`)
    out.push('</ul>')
  }
  const reply = card.kind === 'todos' ? null : card.reply
  if (card.outcome === 'declined') {
    const who = card.kind === 'plan' ? 'The user sent this plan back' : card.kind === 'question' ? 'The user dismissed the question' : 'The user declined this call'
    out.push(`<div class="note">${who}${reply ? `, saying:</div><blockquote class="reply">${escapeHtml(reply)}</blockquote>` : '.</div>'}`)
  } else if (card.outcome === 'failed') out.push(`<div class="label">Error</div><pre>${escapeHtml(reply ?? '')}</pre>`)
  else if (card.outcome === 'no-result') out.push('<div class="note">No result was recorded.</div>')
  out.push('</div></details>')
}

function renderQuestion(question: AskedQuestion, out: string[]): void {
  out.push('<div class="question">')
  if (question.header) out.push(`<div class="label">${escapeHtml(question.header)}</div>`)
  out.push(`<div class="md">${markdownToSafeHtml(question.question)}</div>`)
  const chosen = chosenOptions(question)
  if (question.options.length > 0) {
    out.push('<ul class="opts">')
    for (const option of question.options) {
      const isChosen = chosen.has(option.label)
      const description = option.description ? ` <span class="note">— ${escapeHtml(option.description)}</span>` : ''
      out.push(`<li class="opt${isChosen ? ' chosen' : ''}">${isChosen ? '● ' : '○ '}${escapeHtml(option.label)}${description}</li>`)
    }
    out.push('</ul>')
  }
  if (question.answer !== null) out.push(`<div class="answer"><span class="label">${chosen.size > 0 ? 'Answer' : 'Answer, typed by the user'}</span> ${escapeHtml(question.answer)}</div>`)
  out.push('</div>')
}
