import { homedir } from 'node:os'
import type { ExportDocument } from './document-schema'
import { mapDocumentTexts } from './document-texts'

// "Replace the local path": a shared export need not say where the exporting machine keeps the
// project, nor whose home folder it is in. Every text of the document (messages, tool inputs
// and results, file names, diffs, the session's folder, file contents as text) has the
// workspace's folder replaced by the workspace's name (also as Claude Code's project folder
// spells it), and then the home folder by `~`.

/** Characters that continue a folder name: `/code/shop` must not match inside `/code/shop-old`. */
const CONTINUES_NAME = '(?![\\w.\\-])'

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** `/home/ann/code/shop/src/a.ts` → `shop/src/a.ts`; `/home/ann/.claude` → `~/.claude`. */
export function pathReplacer(workspacePath: string, workspaceName: string, home: string = homedir()): (text: string) => string {
  const rules: [RegExp, string][] = []
  const add = (from: string, to: string) => {
    const trimmed = from.replace(/[\\/]+$/, '')
    // A root folder (`/`) or an empty one would replace every slash: never.
    if (trimmed.length < 2) return
    rules.push([new RegExp(`${escapeRegExp(trimmed)}${CONTINUES_NAME}`, 'g'), to])
  }
  const name = workspaceName || 'workspace'
  add(workspacePath, name)
  // Claude Code names a project's history folder after its path, every other character a dash
  // (`-home-ann-code-shop`): that names the folder too.
  const slug = workspacePath.replace(/[\\/]+$/, '').replace(/[^a-zA-Z0-9]/g, '-')
  if (/[a-zA-Z0-9]/.test(slug)) add(slug, name.replace(/[^a-zA-Z0-9]/g, '-'))
  add(home, '~')
  return (text) => rules.reduce((result, [pattern, to]) => result.replace(pattern, () => to), text)
}

/** The document with the local workspace folder shown as the workspace's name (and the home folder as `~`). */
export function anonymizeWorkspacePath(doc: ExportDocument, home: string = homedir()): ExportDocument {
  const replace = pathReplacer(doc.workspace.path, doc.workspace.name, home)
  const copy = mapDocumentTexts(doc, replace)
  // The header's folder line: the name alone.
  copy.workspace.path = copy.workspace.name
  return copy
}
