import { escapeAttribute, escapeHtml } from './html-escape'
import { pageFoot, pageHead, renderSessionBody } from './html'
import type { ExportMeta } from './export-meta'
import { formatTime, plural, redactionNote } from './present'
import type { WorkspaceExport } from './workspace-export'

/** Deeper than this, the list stops indenting (the classes the stylesheet knows). */
const MAX_INDENT = 6

/**
 * A workspace's sessions as one self-contained page: a list of every session in tree order,
 * each linked to its full transcript further down the same page (anchors `s<n>`, its turns
 * `s<n>-t<turn>`). The same policy as a session's page: no script, nothing loaded.
 */
export function renderWorkspaceHtml(exported: WorkspaceExport, meta: ExportMeta): string {
  const { workspace, sessions } = exported
  const title = workspace.name || 'Workspace'
  const out: string[] = [
    pageHead(`${title} — every session`, meta),
    '<header id="index">',
    `<p class="kicker">Workspace · ${plural(sessions.length, 'session')}</p>`,
    `<h1>${escapeHtml(title)}</h1>`,
    renderWorkspaceFacts(exported, meta),
    '</header>\n'
  ]
  if (sessions.length === 0) out.push('<p class="note">This workspace has no sessions.</p>\n')
  else {
    out.push(`<nav class="toc index"><details open><summary>${plural(sessions.length, 'session')}</summary><ol>`)
    sessions.forEach(({ doc, depth }, index) => {
      const { session } = doc
      const indent = Math.min(depth, MAX_INDENT)
      out.push(
        `<li class="depth-${indent}"><span class="n">${index + 1}</span><a href="#s${index + 1}">${escapeHtml(session.title.trim() || 'Untitled session')}</a>` +
          `<span class="files">${escapeHtml(session.source)} · ${escapeHtml(session.kind)} · ${plural(session.turnCount, 'turn')} · ${formatTime(session.updatedAt)}</span></li>`
      )
    })
    out.push('</ol></details></nav>\n')
  }
  const anchors = new Map(sessions.map(({ doc }, index) => [doc.session.id, `s${index + 1}`]))
  const anchorOf = (id: string) => anchors.get(id) ?? null
  sessions.forEach(({ doc }, index) => {
    const { session } = doc
    const anchor = `s${index + 1}`
    out.push(`<article class="session" id="${escapeAttribute(anchor)}"><header>`)
    out.push(`<p class="kicker">Session ${index + 1} of ${sessions.length} · ${escapeHtml(session.source)} · ${escapeHtml(session.kind)} · <a href="#index">back to the list</a></p>`)
    out.push(`<h1>${escapeHtml(session.title.trim() || 'Untitled session')}</h1>`)
    renderSessionBody(doc, meta, `${anchor}-`, out, anchorOf)
    out.push('</article>\n')
  })
  out.push(pageFoot(meta))
  return out.join('')
}

function renderWorkspaceFacts({ workspace, sessions }: WorkspaceExport, meta: ExportMeta): string {
  const rows: [string, string][] = []
  rows.push(['Workspace', workspace.path === workspace.name ? escapeHtml(workspace.name) : `${escapeHtml(workspace.name)} <span class="note mono">${escapeHtml(workspace.path)}</span>`])
  const created = sessions.map(({ doc }) => doc.session.createdAt)
  const updated = sessions.map(({ doc }) => doc.session.updatedAt)
  if (sessions.length > 0) rows.push(['Dates', `${formatTime(Math.min(...created))} → ${formatTime(Math.max(...updated))}`])
  const turns = sessions.reduce((sum, { doc }) => sum + doc.session.turnCount, 0)
  rows.push(['Size', `${plural(sessions.length, 'session')} · ${plural(turns, 'turn')}`])
  rows.push(['Redaction', escapeHtml(redactionNote(meta))])
  return `<dl class="facts">${rows.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join('')}</dl>`
}
