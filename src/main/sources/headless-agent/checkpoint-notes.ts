import type { PostCheckpoint, PreCheckpoint, SupervisionRecord } from './checkpoint-files'

/**
 * Checkpoint files as the text of a transcript note. They are the supervision harness's audit
 * records, not words of the conversation (the supervisor is another model, the pre/post files
 * are written by the harness around the goal), so they become `system` notes at the point their
 * `checkpoint` event says they were written: the commitment just before the goal runs, the
 * self-assessment after its answer, the verdict after that. Only fields the file holds are shown.
 */

export function preNote(file: string, pre: PreCheckpoint): string {
  const lines = [`Pre-checkpoint (${file})`]
  if (pre.goal) lines.push(`Goal: ${pre.goal}`)
  if (pre.interpretation) lines.push(`Commitment: ${pre.interpretation}`)
  if (pre.scope) {
    if (pre.scope.inBounds) lines.push(`In scope: ${listInline(pre.scope.inBounds)}`)
    if (pre.scope.outBounds) lines.push(`Out of scope: ${listInline(pre.scope.outBounds)}`)
  }
  if (pre.approach) lines.push(`Approach: ${pre.approach}`)
  if (pre.predictions) lines.push('Predictions:', ...bullets(pre.predictions))
  if (pre.assumptions) lines.push('Assumptions:', ...bullets(pre.assumptions))
  return lines.join('\n')
}

export function postNote(file: string, post: PostCheckpoint): string {
  const lines = [`Post-checkpoint (${file})`]
  if (post.toolsUsed) lines.push(`Tools used: ${listInline(post.toolsUsed)}`)
  const assessment = [post.commitmentMet !== undefined ? `commitment met: ${post.commitmentMet}` : '', post.scopeChanged !== undefined ? `scope changed: ${post.scopeChanged}` : ''].filter(Boolean)
  if (assessment.length > 0) lines.push(`Self-assessment: ${assessment.join(', ')}`)
  if (post.concerns) lines.push(post.concerns.length === 0 ? 'Concerns: none' : 'Concerns:', ...bullets(post.concerns))
  if (post.output !== undefined) lines.push('Output:', post.output)
  return lines.join('\n')
}

export function supervisionNote(file: string, record: SupervisionRecord): string {
  const lines = [`Supervision (${file})${record.verdict ? `: ${record.verdict}` : ''}`]
  if (record.reasoning) lines.push(`Reasoning: ${record.reasoning}`)
  if (record.correction) lines.push(`Correction: ${record.correction}`)
  // The supervisor's public key is not kept in the agent home, so the signature cannot be checked here.
  lines.push(record.signature ? 'Signed (signature not verified by Retrace)' : 'Unsigned')
  return lines.join('\n')
}

function listInline(items: string[]): string {
  return items.length === 0 ? 'none' : items.join(', ')
}

function bullets(items: string[]): string[] {
  return items.map((item) => `- ${item}`)
}
