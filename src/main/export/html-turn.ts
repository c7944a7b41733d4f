import type { ExportFileChange, ExportMessage } from './document-schema'
import { interactiveCard } from '../../shared/interactive-tools'
import { escapeAttribute, escapeHtml } from './html-escape'
import { renderInteractiveCall } from './html-interactive'
import { renderPatch } from './html-diff'
import { markdownToSafeHtml } from './html-markdown'
import { changeCounts, filesChangedLine, formatCount, tooManyChangesNote, formatTime, inputFields, OP_LABEL, plural, roleLabel, toolGist, usageLine, type TurnView } from './present'

/**
 * Tool inputs and results longer than this are cut in the page, with a note: a 20 MB command
 * output would make the page unreadable (the JSON export carries it whole).
 */
export const MAX_TOOL_TEXT = 256 * 1024

/** One turn: header, messages (tool calls and reasoning collapsed), then the files it changed. */
export function renderTurn(view: TurnView, contextStartSeq: number, out: string[], anchors = ''): void {
  const anchor = `${anchors}t${view.turn}`
  const first = view.items[0]
  const firstMessage = first ? (first.kind === 'tool' ? first.call : first.message) : null
  out.push(`<section class="turn" id="${escapeAttribute(anchor)}"><header><h2><a href="#${escapeAttribute(anchor)}">${view.turn === 0 ? 'Before the first prompt' : `Turn ${view.turn}`}</a></h2>`)
  if (firstMessage?.createdAt) out.push(`<span class="when">${formatTime(firstMessage.createdAt)}</span>`)
  if (view.checkpoint?.invalidated) out.push('<span class="badge warn">checkpoint invalidated</span>')
  const uncaptured = view.checkpoint?.uncapturedCommands ?? 0
  if (uncaptured > 0) out.push(`<span class="badge warn">${plural(uncaptured, 'shell command')} whose file changes were not captured</span>`)
  out.push('</header>')
  for (const item of view.items) {
    if (item.kind === 'tool') renderTool(item.call, item.result, out)
    else renderMessage(item.message, contextStartSeq, out)
  }
  if (view.changes.length > 0) renderChanges(view, out)
  out.push('</section>\n')
}

function renderMessage(message: ExportMessage, contextStartSeq: number, out: string[]): void {
  const outOfContext = !message.inContext && message.role !== 'compaction_summary'
  const usage = message.usage ? `<span class="usage">${escapeHtml(usageLine(message.usage))}</span>` : ''
  const tag = outOfContext ? '<span class="badge">not in the model’s context</span>' : ''
  const text = escapeHtml(message.content)
  switch (message.role) {
    case 'reasoning':
      out.push(`<details class="m reasoning"><summary>Reasoning</summary><div class="body text">${text}</div></details>`)
      return
    case 'tool_result':
      // A result whose call is not in the transcript (the call was compacted away, or cut by a fork).
      out.push(`<details class="m tool"><summary><span class="tn">${escapeHtml(roleLabel(message))}</span>${message.isError ? '<span class="err">error</span>' : ''}</summary><div class="body">${toolText(message.content)}</div></details>`)
      return
    case 'compaction_summary': {
      const note = message.seq === contextStartSeq ? ' — the model’s context starts here' : ''
      out.push(`<div class="m compaction"><div class="who">Compaction summary${note}</div><div class="text">${text}</div></div>`)
      return
    }
    default: {
      const cls = `m ${message.role}${outOfContext ? ' out' : ''}`
      // The assistant's reply reads as Markdown, as in the window; everything else as the text it is.
      const body = message.role === 'assistant' ? `<div class="md">${markdownToSafeHtml(message.content)}</div>` : `<div class="text">${text}</div>`
      out.push(`<div class="${cls}"><div class="who">${escapeHtml(roleLabel(message))}${usage}${tag}</div>${body}</div>`)
    }
  }
}

function renderTool(call: ExportMessage, result: ExportMessage | null, out: string[]): void {
  const card = interactiveCard(call.toolName, call.toolInput, result)
  if (card) return renderInteractiveCall(call, card, out)
  const gist = toolGist(call.toolInput)
  const failed = result?.isError || call.isError
  out.push(
    `<details class="m tool"><summary><span class="tn">${escapeHtml(call.toolName ?? 'Tool')}</span>` +
      (gist ? `<code class="gist">${escapeHtml(gist)}</code>` : '') +
      (failed ? '<span class="err">error</span>' : '') +
      '</summary><div class="body">'
  )
  const fields = inputFields(call.toolInput)
  if (fields.length > 0) {
    out.push('<div class="label">Input</div><dl class="fields">')
    for (const field of fields) out.push(`<dt>${escapeHtml(field.name)}</dt><dd>${toolText(field.value)}</dd>`)
    out.push('</dl>')
  }
  if (call.content.trim()) out.push(`<div class="label">Note</div><div class="text">${escapeHtml(call.content)}</div>`)
  if (result) out.push(`<div class="label">Result</div>${toolText(result.content)}`)
  else out.push('<div class="label">Result</div><div class="note">No result was recorded.</div>')
  out.push('</div></details>')
}

function toolText(text: string): string {
  if (text.length <= MAX_TOOL_TEXT) return `<pre>${escapeHtml(text)}</pre>`
  const rest = text.length - MAX_TOOL_TEXT
  return `<pre>${escapeHtml(text.slice(0, MAX_TOOL_TEXT))}</pre><div class="cut">Truncated here: ${formatCount(rest)} more characters are in the JSON export.</div>`
}

function renderChanges(view: TurnView, out: string[]): void {
  out.push(`<div class="files"><h3>${escapeHtml(filesChangedLine(view.changes))} in turn ${view.turn}</h3>`)
  for (const change of view.changes) renderChange(change, out)
  out.push('</div>')
}

function renderChange(change: ExportFileChange, out: string[]): void {
  const name = change.from ? `${change.from.path} → ${change.path}` : change.path
  out.push(
    `<details class="file"><summary><span class="op">${OP_LABEL[change.op]}</span><code>${escapeHtml(name)}</code><span class="counts">${escapeHtml(changeCounts(change))}</span></summary>`
  )
  const { diff } = change
  if (diff.kind === 'too-many-changes') out.push(`<div class="empty">${escapeHtml(tooManyChangesNote(change))}</div>`)
  if (diff.patch) out.push(renderPatch(diff.patch))
  else out.push(`<div class="empty">${escapeHtml(emptyDiffNote(change))}</div>`)
  if (diff.omittedLines > 0) out.push(`<div class="cut">Truncated here: ${plural(diff.omittedLines, 'more diff line')} not shown.</div>`)
  out.push('</details>')
}

function emptyDiffNote(change: ExportFileChange): string {
  switch (change.diff.kind) {
    case 'binary':
      return `Binary file (${sizes(change)}).`
    case 'too-large':
      return `Too large to diff (${sizes(change)}).`
    case 'unavailable':
      return 'The snapshot of this file is no longer available in the store.'
    default:
      return change.op === 'rename' ? 'Renamed without changing its content.' : change.op === 'mode' ? 'Only its mode changed.' : 'No text change.'
  }
}

/** `1,024 → 2,048 bytes`, or one size when the file was created or deleted. */
function sizes(change: ExportFileChange): string {
  const { before, after } = change
  if (before && after) return `${formatCount(before.size)} → ${formatCount(after.size)} bytes`
  return plural((after ?? before)?.size ?? 0, 'byte')
}
