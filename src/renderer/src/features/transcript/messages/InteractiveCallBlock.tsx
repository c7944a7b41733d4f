import type { Message } from '../../../../../shared/contract'
import { cardSummary, chosenOptions, outcomeLabel, type AskedQuestion, type InteractiveCard, type TodoItem } from '../../../../../shared/interactive-tools'
import { useDisclosure } from '../../../ui/disclosure'
import { Markdown } from '../markdown/Markdown'

interface Props {
  call: Message
  card: InteractiveCard
  moreToLoad: boolean
  focused: boolean
}

const KIND_LABEL: Record<InteractiveCard['kind'], string> = { question: 'Question', plan: 'Plan', todos: 'Checklist' }
const BADGE_CLASS: Record<InteractiveCard['outcome'], string> = { accepted: 'badge-accepted', declined: 'badge-muted', failed: 'badge-error', 'no-result': 'badge-muted' }

/**
 * A Claude Code question, plan or checklist as what it is (interactive-tools.ts). Questions and
 * plans are part of the conversation, so they open by default; a checklist (rewritten at every
 * step of a long task) stays folded to its progress line.
 */
export function InteractiveCallBlock({ call, card, moreToLoad, focused }: Props) {
  const disclosure = useDisclosure(`tool-${call.id}`, focused || card.kind !== 'todos')
  const label = outcomeLabel(card)
  return (
    <details
      className={`msg tool-call interactive-call card-${card.kind}${card.outcome === 'failed' ? ' status-error' : ''}`}
      data-testid="tool-call"
      data-tool={call.toolName ?? undefined}
      data-outcome={card.outcome}
      {...disclosure}
    >
      <summary>
        <span className="tool-name" title={call.toolName ?? undefined}>
          {KIND_LABEL[card.kind]}
        </span>
        <span className="tool-summary">{cardSummary(card)}</span>
        {label ? <span className={`badge ${BADGE_CLASS[card.outcome]}`}>{label}</span> : null}
        {card.outcome === 'no-result' && !moreToLoad && card.kind !== 'todos' ? <span className="badge badge-muted">no result</span> : null}
      </summary>
      <div className="tool-body interactive-body">
        {card.kind === 'question' ? <QuestionBody card={card} /> : card.kind === 'plan' ? <PlanBody card={card} /> : <TodoBody todos={card.todos} />}
        <Outcome card={card} moreToLoad={moreToLoad} />
      </div>
    </details>
  )
}

function QuestionBody({ card }: { card: Extract<InteractiveCard, { kind: 'question' }> }) {
  return (
    <div className="question-card" data-testid="question-card" data-outcome={card.outcome}>
      {card.questions.map((question, index) => (
        <Question key={index} question={question} />
      ))}
    </div>
  )
}

function Question({ question }: { question: AskedQuestion }) {
  const chosen = chosenOptions(question)
  return (
    <section className="question">
      {question.header ? <div className="question-header">{question.header}</div> : null}
      <div className="question-text">
        <Markdown text={question.question} />
      </div>
      {question.options.length > 0 ? (
        <ul className="question-options" aria-label={question.multiSelect ? 'Options (several could be chosen)' : 'Options'}>
          {question.options.map((option) => {
            const isChosen = chosen.has(option.label)
            return (
              <li key={option.label} className={`question-option${isChosen ? ' chosen' : ''}`} data-testid="question-option" data-chosen={isChosen}>
                <span className="option-mark" aria-hidden="true">
                  {isChosen ? '●' : '○'}
                </span>
                <span className="option-text">
                  {isChosen ? <span className="visually-hidden">chosen: </span> : null}
                  <span className="option-label">{option.label}</span>
                  {option.description ? <span className="option-description"> — {option.description}</span> : null}
                </span>
              </li>
            )
          })}
        </ul>
      ) : null}
      {question.answer !== null ? (
        <p className="question-answer" data-testid="question-answer">
          <span className="tool-section-label">{chosen.size > 0 ? 'Answer' : 'Answer, typed by the user'}</span> {question.answer}
        </p>
      ) : null}
    </section>
  )
}

function PlanBody({ card }: { card: Extract<InteractiveCard, { kind: 'plan' }> }) {
  return (
    <div className="plan-card" data-testid="plan-card" data-outcome={card.outcome}>
      {card.plan ? (
        <div className="plan-text">
          <Markdown text={card.plan} />
        </div>
      ) : (
        <p className="muted">Claude Code kept this plan in a file of its own{card.planFile ? ` (${card.planFile})` : ''}, not in the transcript.</p>
      )}
      {card.plan && card.planFile ? <p className="muted plan-file">Saved by Claude Code to {card.planFile}</p> : null}
    </div>
  )
}

const TODO_MARK: Record<TodoItem['status'], string> = { pending: '○', in_progress: '◐', completed: '●' }
const TODO_SPOKEN: Record<TodoItem['status'], string> = { pending: 'to do', in_progress: 'in progress', completed: 'done' }

function TodoBody({ todos }: { todos: TodoItem[] }) {
  return (
    <div className="todo-card" data-testid="todo-card">
      <ul className="todo-list">
        {todos.map((todo, index) => (
          <li key={index} data-testid="todo-item" data-status={todo.status} className={`todo todo-${todo.status}`}>
            <span className="todo-mark" aria-hidden="true">
              {TODO_MARK[todo.status]}
            </span>
            <span className="visually-hidden">{TODO_SPOKEN[todo.status]}: </span>
            <span className="todo-text">{todo.content}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** What the user did with it, in words: sent back (with what they said), failed (with the error), or not known. */
function Outcome({ card, moreToLoad }: { card: InteractiveCard; moreToLoad: boolean }) {
  const reply = card.kind === 'todos' ? null : card.reply
  switch (card.outcome) {
    case 'accepted':
      return null
    case 'declined':
      return (
        <div className="card-outcome declined" data-testid="card-declined">
          {card.kind === 'plan' ? 'The user sent this plan back' : card.kind === 'question' ? 'The user dismissed the question' : 'The user declined this call'}
          {reply ? (
            <>
              , saying:
              <blockquote className="card-reply">{reply}</blockquote>
            </>
          ) : (
            '.'
          )}
        </div>
      )
    case 'failed':
      return (
        <div className="tool-result is-error" data-testid="tool-result" data-error="true">
          <div className="tool-section-label">Error</div>
          <pre className="code-block">{reply ?? '(empty)'}</pre>
        </div>
      )
    case 'no-result':
      return <p className="muted tool-no-result">{moreToLoad ? 'The result is further down; scroll to load it.' : 'No result was recorded for this call.'}</p>
  }
}
