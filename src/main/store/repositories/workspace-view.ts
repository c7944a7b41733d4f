/**
 * What a workspace shows (R59): its own sessions and those stored in the workspaces of its
 * subfolders (a session is stored once, under the folder it ran in; sources/session-owners.ts).
 * `param` names the listed workspace's id in the statement (`@workspaceId`), `@subfolders` whether
 * the view is the folder's (1), or only what its workspace stores (0: the repositories' default,
 * and what a home or system folder's read-only workspace shows: what ran in it, not every project
 * below it; handlers/workspace-view.ts). A subfolder is a workspace whose path starts
 * with the listed one's and a separator (`/`, or `\` on Windows).
 */
export function viewedWorkspaceIds(param: string): string {
  return `(SELECT v.id FROM workspaces v JOIN workspaces o ON o.id = ${param}
    WHERE v.id = o.id OR (@subfolders = 1 AND substr(v.path, 1, length(o.path) + 1) IN (o.path || '/', o.path || '\\')))`
}

/** The subfolder (relative to the listed workspace) a session of the view is stored under; NULL for the workspace's own and an enclosing folder's. */
export function subfolderOf(sessionWorkspace: string, param: string): string {
  return `CASE WHEN ${sessionWorkspace} <> ${param} AND ${sessionWorkspace} IN ${viewedWorkspaceIds(param)} THEN substr((SELECT path FROM workspaces WHERE id = ${sessionWorkspace}),
    length((SELECT path FROM workspaces WHERE id = ${param})) + 2) END`
}

/**
 * Whether the session `alias` is in the view of the listed workspace: stored in it or in a
 * subfolder's workspace (viewedWorkspaceIds), or stored in an enclosing folder's workspace while
 * its recorded folder is the listed one or inside it (a Copilot CLI session started in a
 * repository's subfolder is placed at the repository's root, and the subfolder shows it too).
 */
export function sessionInView(alias: string, param: string): string {
  const listed = `(SELECT path FROM workspaces WHERE id = ${param})`
  return `(${alias}.workspace_id IN ${viewedWorkspaceIds(param)}
    OR (@subfolders = 1 AND ${alias}.cwd IS NOT NULL AND ${alias}.workspace_id IN (SELECT e.id FROM workspaces e JOIN workspaces o ON o.id = ${param}
        WHERE e.id <> o.id AND substr(o.path, 1, length(e.path) + 1) IN (e.path || '/', e.path || '\\'))
      AND (${alias}.cwd = ${listed} OR substr(${alias}.cwd, 1, length(${listed}) + 1) IN (${listed} || '/', ${listed} || '\\'))))`
}
