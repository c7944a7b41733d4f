/**
 * Claude Code's interactive tools read as what they are: `AskUserQuestion` (questions, their
 * options and the user's answers), `ExitPlanMode` (a plan, approved or not) and `TodoWrite` (a
 * checklist). Shared by the window's transcript and the HTML export.
 *
 * Why they used to read "error": Claude Code answers a call the user turned down (a plan sent
 * back, a question dismissed) with the same tool result as any refused call — `is_error: true`
 * and "The user doesn't want to proceed with this tool use…". For these tools that is the user's
 * decision, not a failure; only other errors (e.g. an old version's "No such tool available")
 * are failures.
 */

/** What became of the call: the user accepted (answered, approved), declined, it failed, or no result is known. */
export type CardOutcome = 'accepted' | 'declined' | 'failed' | 'no-result'

export interface QuestionOption {
  label: string
  description: string | null
}

export interface AskedQuestion {
  /** The short chip Claude Code shows above the question ("Tar formats"), when given. */
  header: string | null
  question: string
  options: QuestionOption[]
  multiSelect: boolean
  /** What the user chose or typed, as Claude Code reported it to the model; null when not answered. */
  answer: string | null
}

export type TodoStatus = 'pending' | 'in_progress' | 'completed'

export interface TodoItem {
  content: string
  status: TodoStatus
  /** The present-tense line Claude Code shows while the item is in progress. */
  activeForm: string | null
}

export type InteractiveCard =
  | { kind: 'question'; questions: AskedQuestion[]; outcome: CardOutcome; reply: string | null }
  | { kind: 'plan'; plan: string | null; planFile: string | null; outcome: CardOutcome; reply: string | null }
  | { kind: 'todos'; todos: TodoItem[]; outcome: CardOutcome }

/** The result of a call as the transcript keeps it: its text and the agent's error flag. */
export interface CardResult {
  content: string
  isError: boolean
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value)
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)

/** The card for a call of one of these tools (by Claude Code's names), or null for any other call or an input it cannot read. */
export function interactiveCard(toolName: string | null, input: unknown, result: CardResult | null): InteractiveCard | null {
  switch (toolName) {
    case 'AskUserQuestion':
      return questionCard(input, result)
    case 'ExitPlanMode':
      return planCard(input, result)
    case 'TodoWrite':
      return todosCard(input, result)
    default:
      return null
  }
}

/**
 * Claude Code's words for a call the user turned down: "The user doesn't want to proceed with
 * this tool use…" (rejected), "…doesn't want to take this action right now" (cancelled), or the
 * interruption line when the user pressed Esc at the prompt.
 */
const DECLINED = [/^The user doesn't want to proceed with this tool use/, /^The user doesn't want to take this action/, /^\[Request interrupted by user for tool use\]/]

/** Where Claude Code puts what the user typed when turning a call down (older and newer wording). */
const DECLINE_REASON = [/the user said:\s*([\s\S]+)$/, /The user provided the following reason for the rejection:\s*([\s\S]+)$/]

function outcomeOf(result: CardResult | null): { outcome: CardOutcome; reply: string | null } {
  if (result === null) return { outcome: 'no-result', reply: null }
  const content = result.content.trim()
  if (!result.isError) return { outcome: 'accepted', reply: null }
  if (DECLINED.some((pattern) => pattern.test(content))) {
    const reason = DECLINE_REASON.map((pattern) => pattern.exec(content)?.[1]?.trim()).find((found) => found)
    return { outcome: 'declined', reply: reason ?? null }
  }
  return { outcome: 'failed', reply: content.replace(/^<tool_use_error>([\s\S]*)<\/tool_use_error>$/, '$1') || null }
}

function questionCard(input: unknown, result: CardResult | null): InteractiveCard | null {
  if (!isObject(input)) return null
  let questions: AskedQuestion[]
  if (Array.isArray(input.questions)) {
    questions = input.questions.filter(isObject).flatMap((entry) => {
      const question = text(entry.question)
      if (question === null) return []
      const options = Array.isArray(entry.options)
        ? entry.options.filter(isObject).flatMap((option) => {
            const label = text(option.label)
            return label === null ? [] : [{ label, description: text(option.description) || null }]
          })
        : []
      return [{ header: text(entry.header) || null, question, options, multiSelect: entry.multiSelect === true, answer: null }]
    })
  } else if (typeof input.question === 'string') {
    // Before the tool took a list (Claude Code 2.0.3x): one free-form question.
    questions = [{ header: null, question: input.question, options: [], multiSelect: false, answer: null }]
  } else return null
  if (questions.length === 0) return null
  const { outcome, reply } = outcomeOf(result)
  if (outcome === 'accepted' && result) {
    const answers = answersIn(result.content, questions.map((question) => question.question))
    questions = questions.map((question, index) => ({ ...question, answer: answers[index] ?? null }))
  }
  return { kind: 'question', questions, outcome, reply }
}

/**
 * The answers in Claude Code's result, `User has answered your questions: "Q1"="A1", "Q2"="A2".
 * You can now continue…`, found by each question's own text (questions and answers may hold
 * quotes and commas, so the text cannot simply be split). A question the text does not name gets null.
 */
export function answersIn(content: string, questions: readonly string[]): (string | null)[] {
  const end = content.lastIndexOf('. You can now continue')
  const body = end === -1 ? content : content.slice(0, end)
  const starts = questions.map((question) => {
    const marker = `"${question}"=`
    const at = body.indexOf(marker)
    return at === -1 ? null : { at, valueAt: at + marker.length }
  })
  return starts.map((start, index) => {
    if (start === null) return null
    const next = starts.slice(index + 1).find((later) => later !== null && later.at > start.at)
    let value = body.slice(start.valueAt, next ? next.at : body.length)
    if (next) value = value.replace(/,\s*$/, '')
    value = value.trim()
    // `"answer"`, possibly followed by the user's notes: unquote the answer, keep the rest.
    const quoted = /^"([\s\S]*)"$/.exec(value)
    if (quoted) return quoted[1] ?? ''
    const withNote = /^"([\s\S]*?)"\s+([\s\S]+)$/.exec(value)
    if (withNote) return `${withNote[1]} (${withNote[2]})`
    return value || null
  })
}

function planCard(input: unknown, result: CardResult | null): InteractiveCard | null {
  if (!isObject(input) && input !== null) return null
  const { outcome, reply } = outcomeOf(result)
  let plan = isObject(input) ? text(input.plan) : null
  // Since 2.1 the plan lives in a file (the input is empty); an approval quotes it after "## Approved Plan".
  const content = result?.content ?? ''
  if (!plan) plan = /## Approved Plan[^\n]*:\n([\s\S]+)$/.exec(content)?.[1]?.trim() || null
  const planFile = /Your plan has been saved to: (\S+)/.exec(content)?.[1] ?? null
  return { kind: 'plan', plan: plan?.trim() ? plan : null, planFile, outcome, reply }
}

const TODO_STATUSES: ReadonlySet<string> = new Set(['pending', 'in_progress', 'completed'])

function todosCard(input: unknown, result: CardResult | null): InteractiveCard | null {
  if (!isObject(input) || !Array.isArray(input.todos)) return null
  const todos = input.todos.filter(isObject).flatMap((todo): TodoItem[] => {
    const content = text(todo.content)
    if (content === null) return []
    const status = text(todo.status)
    return [{ content, status: status !== null && TODO_STATUSES.has(status) ? (status as TodoStatus) : 'pending', activeForm: text(todo.activeForm) || null }]
  })
  return { kind: 'todos', todos, outcome: outcomeOf(result).outcome }
}

/**
 * The options the answer names: the answer itself or, several chosen, each of its parts
 * (Claude Code joins them with ", "). Empty when the user typed an answer of their own.
 */
export function chosenOptions(question: AskedQuestion): Set<string> {
  const { answer } = question
  if (answer === null) return new Set()
  const labels = new Set(question.options.map((option) => option.label))
  if (labels.has(answer)) return new Set([answer])
  return new Set(answer.split(', ').filter((part) => labels.has(part)))
}

/** `2 of 5 done`, for a checklist's line. */
export function todoProgress(todos: readonly TodoItem[]): string {
  const done = todos.filter((todo) => todo.status === 'completed').length
  return `${done} of ${todos.length} done`
}

/** The word for a card's outcome: "answered" / "approved", "not answered" / "not approved", "error". Null when there is nothing to say. */
export function outcomeLabel(card: InteractiveCard): string | null {
  switch (card.outcome) {
    case 'accepted':
      return card.kind === 'question' ? 'answered' : card.kind === 'plan' ? 'approved' : null
    case 'declined':
      return card.kind === 'question' ? 'not answered' : card.kind === 'plan' ? 'not approved' : 'declined'
    case 'failed':
      return 'error'
    case 'no-result':
      return null
  }
}

/** One line for the collapsed card: the first question, the plan's first heading, the checklist's progress and current item. */
export function cardSummary(card: InteractiveCard): string {
  switch (card.kind) {
    case 'question': {
      const [first] = card.questions
      const more = card.questions.length > 1 ? ` (+${card.questions.length - 1} more)` : ''
      return `${oneLine(first?.question ?? '')}${more}`
    }
    case 'plan': {
      if (!card.plan) return card.planFile ? `plan in ${card.planFile}` : 'plan kept outside the transcript'
      const heading = card.plan.split('\n').find((line) => line.trim() !== '') ?? ''
      return oneLine(heading.replace(/^#+\s*/, ''))
    }
    case 'todos': {
      const current = card.todos.find((todo) => todo.status === 'in_progress')
      return current ? `${todoProgress(card.todos)} · ${oneLine(current.activeForm ?? current.content)}` : todoProgress(card.todos)
    }
  }
}

const oneLine = (value: string): string => value.replace(/\s+/g, ' ').trim()
