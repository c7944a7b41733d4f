import type { ExportDocument } from './document-schema'
import { escapeAttribute, escapeHtml } from './html-escape'
import { EXPORT_STYLE, styleHashSource } from './html-style'
import { renderTurn } from './html-turn'
import { agentRewindLines, countFiles, filesChangedLine, firstLine, formatTime, plural, redactionNote, sourcesOf, turnsOf, usageLine } from './present'
import type { ExportMeta } from './export-meta'

/**
 * The page's policy: nothing may load or connect (no script, image, font, frame, fetch or
 * form), and only the inlined stylesheet, by its hash, may style it.
 */
export function exportCsp(style: string = EXPORT_STYLE): string {
  return `default-src 'none'; style-src ${styleHashSource(style)}; base-uri 'none'; form-action 'none'`
}

/**
 * The session as one self-contained HTML page: no script, no external reference, every user
 * string escaped for its context. Tool calls, reasoning and diffs are native `<details>`.
 */
export function renderHtml(doc: ExportDocument, meta: ExportMeta): string {
  const { session } = doc
  const title = session.title.trim() || 'Untitled session'
  const out: string[] = [pageHead(title, meta), '<header>', `<p class="kicker">Agent session · ${escapeHtml(session.source)} · ${escapeHtml(session.kind)}</p>`, `<h1>${escapeHtml(title)}</h1>`]
  renderSessionBody(doc, meta, '', out)
  out.push(pageFoot(meta))
  return out.join('')
}

/** The page up to `<body>`: the policy, the stylesheet, the title. */
export function pageHead(title: string, meta: ExportMeta): string {
  return [
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(exportCsp())}">`,
    '<meta name="referrer" content="no-referrer"><meta name="color-scheme" content="light dark">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="Retrace ${escapeAttribute(meta.appVersion)}">`,
    `<title>${escapeHtml(title)} — Retrace export</title>`,
    `<style>${EXPORT_STYLE}</style></head><body>\n`
  ].join('')
}

export function pageFoot(meta: ExportMeta): string {
  return (
    `<footer>Exported from Retrace ${escapeHtml(meta.appVersion)} on ${formatTime(meta.exportedAt)}. ` +
    'This page is self-contained: it runs no script and makes no network request.</footer>\n</body></html>\n'
  )
}

/**
 * A session after its heading (which the caller writes into the open `<header>`): its facts,
 * table of contents and turns. `anchors` prefixes every anchor, so several sessions share a page.
 */
export function renderSessionBody(doc: ExportDocument, meta: ExportMeta, anchors: string, out: string[], anchorOf: AnchorOf = () => null): void {
  const turns = turnsOf(doc)
  out.push(renderFacts(doc, meta, anchorOf), '</header>\n')
  renderToc(turns, anchors, out)
  out.push('<main>\n')
  for (const view of turns) renderTurn(view, doc.session.contextStartSeq, out, anchors)
  out.push('</main>\n')
}

/** The anchor of another session on the same page (a workspace's index), or null. */
export type AnchorOf = (sessionId: string) => string | null

function renderFacts(doc: ExportDocument, meta: ExportMeta, anchorOf: AnchorOf): string {
  const { session, tree, workspace } = doc
  const rows: [string, string][] = []
  // A session named here links to its own part of the page when the page carries it.
  const ref = (target: { id: string; title: string }) => {
    const anchor = anchorOf(target.id)
    const title = escapeHtml(target.title || 'Untitled')
    return anchor ? `<a href="#${escapeAttribute(anchor)}">${title}</a>` : title
  }
  const crumbs = [...tree.ancestors.map((ancestor) => `<span>${ref(ancestor)}</span>`), `<span class="here">${escapeHtml(session.title || 'Untitled')}</span>`]
  rows.push(['Session tree', `<span class="crumbs">${crumbs.join('')}</span>`])
  if (tree.predecessor) rows.push(['Continues', ref(tree.predecessor)])
  if (tree.children.length > 0) rows.push(['Branches', tree.children.map((c) => `${ref(c)} (${escapeHtml(c.kind)})`).join(' · ')])
  for (const line of agentRewindLines(doc)) rows.push([escapeHtml(line.term), escapeHtml(line.text)])
  if (tree.successors.length > 0) rows.push(['Continued in', tree.successors.map(ref).join(' · ')])
  // With the path replaced, the folder is the name: say it once.
  rows.push(['Workspace', workspace.path === workspace.name ? escapeHtml(workspace.name) : `${escapeHtml(workspace.name)} <span class="note mono">${escapeHtml(workspace.path)}</span>`])
  const sources = sourcesOf(doc)
  rows.push(['Source', `${escapeHtml(session.source)}${sources.length > 0 ? ` <span class="note mono">${escapeHtml(sources.slice(0, 3).join(' · '))}${sources.length > 3 ? ` and ${sources.length - 3} more` : ''}</span>` : ''}`])
  if (session.model) rows.push(['Model', escapeHtml(session.model)])
  rows.push(['Dates', `${formatTime(session.createdAt)} → ${formatTime(session.updatedAt)}`])
  rows.push(['Size', `${plural(session.turnCount, 'turn')} · ${plural(session.messageCount, 'message')} · ${filesChangedLine(doc.fileChanges)}`])
  rows.push(['Tokens', escapeHtml(usageLine(session.usage))])
  rows.push(['Redaction', escapeHtml(redactionNote(meta))])
  return `<dl class="facts">${rows.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join('')}</dl>`
}

function renderToc(turns: ReturnType<typeof turnsOf>, anchors: string, out: string[]): void {
  const listed = turns.filter((view) => view.turn > 0)
  if (listed.length === 0) return
  out.push(`<nav class="toc"><details open><summary>${plural(listed.length, 'turn')}</summary><ol>`)
  for (const view of listed) {
    const files = view.changes.length > 0 ? `<span class="files">${plural(countFiles(view.changes), 'file')}</span>` : ''
    out.push(`<li><span class="n">${view.turn}</span><a href="#${escapeAttribute(anchors)}t${view.turn}">${escapeHtml(firstLine(view.prompt ?? '', 110) || '(no prompt text)')}</a>${files}</li>`)
  }
  out.push('</ol></details></nav>\n')
}
