import type { ExportDocument, ExportFileChange, ExportMessage } from './document-schema'
import type { ExportMeta } from './export-meta'
import { agentRewindLines, changeCounts, tooManyChangesNote, filesChangedLine, firstLine, formatTime, inputFields, OP_LABEL, plural, redactionNote, roleLabel, sourcesOf, toolGist, turnsOf, usageLine, type TurnView } from './present'

// Markdown viewers render raw HTML and links, so no user text is ever Markdown here: prose,
// tool input and output and diffs go in fenced blocks longer than any backtick run inside
// them, and one-line texts (titles, paths, gists) have every character that could start
// markup backslash-escaped. The file reads as plain text too.

/** Characters that could open HTML, a link, emphasis, a table cell or a heading in a line of text. */
const INLINE_SPECIALS = /[\\`*_[\]<>#|!~&]/g

export function mdText(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').replace(INLINE_SPECIALS, (char) => `\\${char}`)
}

/** A fenced block that nothing inside can close. */
export function mdFence(text: string, info = 'text'): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return `${fence}${info}\n${text.replace(/\n$/, '')}\n${fence}\n`
}

/** Inline code that nothing inside can close. */
function mdCode(text: string): string {
  const line = text.replace(/[\r\n]+/g, ' ')
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((match) => match[0].length))
  const ticks = '`'.repeat(longest + 1)
  return `${ticks} ${line} ${ticks}`
}

export function renderMarkdown(doc: ExportDocument, meta: ExportMeta): string {
  const { session, tree, workspace } = doc
  const out: string[] = [`# ${mdText(session.title.trim() || 'Untitled session')}\n`, `*Agent session · ${mdText(session.source)} · ${session.kind}*\n`]
  const facts: [string, string][] = [
    ['Session tree', [...tree.ancestors.map((ref) => mdText(ref.title || 'Untitled')), `**${mdText(session.title || 'Untitled')}**`].join(' › ')],
    ['Workspace', workspace.path === workspace.name ? mdText(workspace.name) : `${mdText(workspace.name)} (${mdText(workspace.path)})`],
    ['Source', [session.source, ...sourcesOf(doc).slice(0, 3)].map(mdText).join(' · ')],
    ['Model', mdText(session.model ?? '—')],
    ['Dates', `${formatTime(session.createdAt)} → ${formatTime(session.updatedAt)}`],
    ['Size', `${plural(session.turnCount, 'turn')} · ${plural(session.messageCount, 'message')} · ${filesChangedLine(doc.fileChanges)}`],
    ['Tokens', mdText(usageLine(session.usage))],
    ['Redaction', mdText(redactionNote(meta))],
    ['Exported', `${formatTime(meta.exportedAt)} by Retrace ${mdText(meta.appVersion)}`]
  ]
  if (tree.predecessor) facts.splice(1, 0, ['Continues', mdText(tree.predecessor.title || 'Untitled')])
  for (const line of agentRewindLines(doc)) facts.splice(1, 0, [mdText(line.term), mdText(line.text)])
  if (tree.children.length > 0) facts.splice(1, 0, ['Branches', tree.children.map((c) => `${mdText(c.title || 'Untitled')} (${c.kind})`).join(' · ')])
  out.push('| | |\n|---|---|\n' + facts.map(([term, value]) => `| ${term} | ${value} |`).join('\n') + '\n')
  const turns = turnsOf(doc)
  const listed = turns.filter((view) => view.turn > 0)
  if (listed.length > 0) {
    out.push('## Turns\n')
    out.push(listed.map((view) => `${view.turn}. [${mdText(firstLine(view.prompt ?? '', 100) || '(no prompt text)')}](#turn-${view.turn})`).join('\n') + '\n')
  }
  for (const view of turns) renderTurn(view, out)
  return out.join('\n')
}

function renderTurn(view: TurnView, out: string[]): void {
  out.push('---\n', view.turn === 0 ? '## Before the first prompt\n' : `## Turn ${view.turn}\n`)
  const notes: string[] = []
  if (view.checkpoint?.invalidated) notes.push('checkpoint invalidated')
  if ((view.checkpoint?.uncapturedCommands ?? 0) > 0) notes.push(`${plural(view.checkpoint?.uncapturedCommands ?? 0, 'shell command')} whose file changes were not captured`)
  if (notes.length > 0) out.push(`*${notes.join(' · ')}*\n`)
  for (const item of view.items) {
    if (item.kind === 'tool') renderTool(item.call, item.result, out)
    else renderMessage(item.message, out)
  }
  if (view.changes.length > 0) {
    out.push(`### ${filesChangedLine(view.changes)} in turn ${view.turn}\n`)
    for (const change of view.changes) renderChange(change, out)
  }
}

function renderMessage(message: ExportMessage, out: string[]): void {
  const extras = [message.createdAt ? formatTime(message.createdAt) : '', message.usage ? usageLine(message.usage) : '', message.inContext || message.role === 'compaction_summary' ? '' : 'not in the model’s context']
  const detail = extras.filter(Boolean).join(' · ')
  out.push(`**${mdText(roleLabel(message))}**${detail ? ` · ${mdText(detail)}` : ''}${message.isError ? ' · error' : ''}\n`)
  out.push(mdFence(message.content))
}

function renderTool(call: ExportMessage, result: ExportMessage | null, out: string[]): void {
  const gist = toolGist(call.toolInput)
  const failed = result?.isError || call.isError
  out.push(`**Tool: ${mdText(call.toolName ?? 'Tool')}**${gist ? ` ${mdCode(gist)}` : ''}${failed ? ' · error' : ''}\n`)
  const fields = inputFields(call.toolInput)
  if (fields.length > 0) out.push(mdFence(fields.map((field) => (field.name ? `${field.name}: ${field.value}` : field.value)).join('\n')))
  if (call.content.trim()) out.push(mdFence(call.content))
  if (result) out.push('Result:\n', mdFence(result.content))
}

function renderChange(change: ExportFileChange, out: string[]): void {
  const name = change.from ? `${change.from.path} → ${change.path}` : change.path
  out.push(`- ${OP_LABEL[change.op]} ${mdCode(name)} (${changeCounts(change)})\n`)
  if (change.diff.kind === 'too-many-changes') out.push(`${mdText(tooManyChangesNote(change))}\n`)
  if (change.diff.patch) out.push(mdFence(change.diff.patch, 'diff'))
  if (change.diff.omittedLines > 0) out.push(`*Truncated: ${plural(change.diff.omittedLines, 'more diff line')} not shown.*\n`)
}
