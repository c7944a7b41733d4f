import { isRecord } from '../plain-data'

/*
 * Code Buddy records things no Retrace role names: plan progress and task state, a user's steer
 * while the agent works, a diff shown before an edit. They become `system` notes, written to be
 * read: a user role would open a turn (a steer belongs to the turn it interrupts), and an
 * assistant role would count them as the model's answers.
 */

/** `plan_progress`: the plan text, and the task state as a checklist (what `loadTaskState()` would resume from). */
export function planProgressNote(content: string, taskState: Record<string, unknown> | undefined): string {
  const lines = [`Plan progress: ${content}`]
  if (taskState) lines.push(...taskStateLines(taskState))
  return lines.join('\n')
}

function taskStateLines(state: Record<string, unknown>): string[] {
  const { objective, steps, currentStepIndex, filesModified } = state
  if (!Array.isArray(steps)) return ['Task state:', JSON.stringify(state, null, 2)]
  const lines: string[] = []
  if (typeof objective === 'string') lines.push(`Objective: ${objective}`)
  steps.forEach((step: unknown, index) => {
    if (!isRecord(step)) return void lines.push(`- ${JSON.stringify(step)}`)
    const done = step.status === 'done'
    const notes = [step.status === 'in_progress' ? 'in progress' : null, index === currentStepIndex ? 'current step' : null].filter(Boolean)
    const label = typeof step.description === 'string' ? step.description : JSON.stringify(step)
    const number = typeof step.id === 'number' || typeof step.id === 'string' ? `${step.id}. ` : ''
    lines.push(`- [${done ? 'x' : ' '}] ${number}${label}${notes.length ? ` (${notes.join(', ')})` : ''}`)
  })
  if (Array.isArray(filesModified)) lines.push(`Files modified: ${filesModified.length ? filesModified.map(String).join(', ') : 'none yet'}`)
  return lines
}

/** `steer`: the user's words reached the agent mid-turn, so they do not open a turn of their own. */
export function steerNote(content: string): string {
  return `The user steered while the agent was working:\n${content}`
}

/** `diff_preview`: the change the agent showed before making it (the tool call that follows applies it). */
export function diffPreviewNote(content: string, toolName: string | undefined): string {
  return `Diff preview${toolName ? ` for ${toolName}` : ''}:\n\`\`\`diff\n${content}\n\`\`\``
}

/** A message type the seed does not name: kept, so nothing the user saw is lost. */
export function unknownTypeNote(type: string, content: string): string {
  return `Code Buddy message of an unknown type (${type}):\n${content}`
}

/** An export's `SessionCheckpoint`: a replay stop, placed where it falls between messages. */
export function checkpointNote(label: string): string {
  return `Checkpoint: ${label}`
}

/** Where a merge Code Buddy made (inferred from the branch files) put the branch's messages. */
export function mergeNote(branchName: string, mode: 'append' | 'replace', messages: number): string {
  const what = mode === 'append' ? 'appended after this conversation’s own messages' : 'replacing this conversation’s messages since the fork'
  return `Merged branch "${branchName}" (${mode}): its ${messages} message${messages === 1 ? '' : 's'} since the fork, ${what}. Code Buddy does not record merges; this one is inferred from the branch files.`
}
