import { RetraceError } from '../../shared/contract'
import type { TreeNode } from '../../shared/contract/tree'
import { anonymizeWorkspacePath } from './anonymize-path'
import type { ExportDocument } from './document-schema'
import { documentTexts, redactDocument, type DocumentText } from './document-texts'
import { exportDocumentOf, type DocumentContext } from './export-document'
import { PendingDiffs } from './file-changes'
import type { SecretFinding } from './redaction'

// A workspace's index page: every session of the workspace in one file, in tree order. Each
// session is the same export document a single export builds; their texts are scanned as one
// review, each place id prefixed with the session's position so findings point back to it.

/** One session of the index: its document and how deep it sits in the session tree. */
export interface IndexedSession {
  doc: ExportDocument
  depth: number
}

export interface WorkspaceExport {
  workspace: { name: string; path: string }
  sessions: IndexedSession[]
}

/**
 * The sessions in tree order: each root oldest first, then its branches and sub-agents (oldest
 * first, one deeper), then the sessions that continue it after a reset (at its depth).
 * Warm-ups are left out, as the window leaves them out.
 */
export function treeOrder(nodes: readonly TreeNode[]): { id: string; depth: number }[] {
  const shown = nodes.filter((node) => !node.warmup)
  const ids = new Set(shown.map((node) => node.id))
  const byCreated = (a: TreeNode, b: TreeNode) => a.createdAt - b.createdAt || a.id.localeCompare(b.id)
  const children = new Map<string, TreeNode[]>()
  const successors = new Map<string, TreeNode[]>()
  const roots: TreeNode[] = []
  for (const node of [...shown].sort(byCreated)) {
    if (node.parentId && ids.has(node.parentId)) push(children, node.parentId, node)
    else if (node.predecessorId && ids.has(node.predecessorId)) push(successors, node.predecessorId, node)
    else roots.push(node)
  }
  const order: { id: string; depth: number }[] = []
  const seen = new Set<string>()
  const visit = (node: TreeNode, depth: number) => {
    if (seen.has(node.id)) return
    seen.add(node.id)
    order.push({ id: node.id, depth })
    for (const child of children.get(node.id) ?? []) visit(child, depth + 1)
    for (const next of successors.get(node.id) ?? []) visit(next, depth)
  }
  for (const root of roots) visit(root, 0)
  // A corrupt cycle of links leaves sessions no root reaches: they are listed, not lost.
  for (const node of shown) visit(node, 0)
  return order
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

/** Every session of the workspace as export documents (from one read snapshot), in tree order. */
export async function buildWorkspaceExport(ctx: DocumentContext, workspaceId: number, options: { anonymizePath: boolean }): Promise<WorkspaceExport> {
  const diffs = new PendingDiffs(ctx.journal)
  const exported = workspaceExportOf(ctx, workspaceId, options, diffs)
  await diffs.settle()
  // After the diffs: anonymizing rewrites their patches too.
  if (!options.anonymizePath) return exported
  return { ...exported, sessions: exported.sessions.map(({ doc, depth }) => ({ doc: anonymizeWorkspacePath(doc), depth })) }
}

function workspaceExportOf(ctx: DocumentContext, workspaceId: number, options: { anonymizePath: boolean }, diffs: PendingDiffs): WorkspaceExport {
  const { store } = ctx
  return store.snapshot(() => {
    const workspace = store.workspaces.get(workspaceId)
    if (!workspace) throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}. Open the folder again from the first screen.`)
    const sessions = treeOrder(store.tree.nodes(workspaceId)).map(({ id, depth }) => {
      return { doc: exportDocumentOf(ctx, id, { withFiles: false }, diffs), depth }
    })
    const name = workspace.name
    return { workspace: { name, path: options.anonymizePath ? name : workspace.path }, sessions }
  })
}

const PREFIX = /^s(\d+)\//

/** Every text of every session, each place id prefixed `s<n>/` and its label with the session's number. */
export function workspaceTexts(exported: WorkspaceExport): DocumentText[] {
  return exported.sessions.flatMap(({ doc }, index) =>
    documentTexts(doc).map(({ place, text }) => ({ place: { ...place, id: `s${index + 1}/${place.id}`, label: `Session ${index + 1} · ${place.label}` }, text }))
  )
}

/** The export with each finding hidden in the session its place id names. */
export function redactWorkspace(exported: WorkspaceExport, findings: readonly SecretFinding[]): WorkspaceExport {
  const bySession = new Map<number, SecretFinding[]>()
  for (const finding of findings) {
    const match = PREFIX.exec(finding.placeId)
    if (!match) continue
    push(bySession, Number(match[1]), { ...finding, placeId: finding.placeId.slice(match[0].length) })
  }
  return { ...exported, sessions: exported.sessions.map((session, index) => ({ ...session, doc: redactDocument(session.doc, bySession.get(index + 1) ?? []) })) }
}
