/**
 * What a workspace shows (R59): its own sessions and those stored in the workspaces of its
 * subfolders (a session is stored once, under the folder it ran in; sources/session-owners.ts).
 * `param` names the listed workspace's id in the statement (`@workspaceId`), `@subfolders` whether
 * its subfolders are in the view (1), or not (0: a home or system folder's read-only workspace
 * shows what ran in it, not every project below it). A subfolder is a workspace whose path starts
 * with the listed one's and a separator (`/`, or `\` on Windows).
 */
export function viewedWorkspaceIds(param: string): string {
  return `(SELECT v.id FROM workspaces v JOIN workspaces o ON o.id = ${param}
    WHERE v.id = o.id OR (@subfolders = 1 AND substr(v.path, 1, length(o.path) + 1) IN (o.path || '/', o.path || '\\')))`
}

/** The subfolder (relative to the listed workspace) a session of the view is stored under; NULL for the workspace's own. */
export function subfolderOf(sessionWorkspace: string, param: string): string {
  return `CASE WHEN ${sessionWorkspace} <> ${param} THEN substr((SELECT path FROM workspaces WHERE id = ${sessionWorkspace}),
    length((SELECT path FROM workspaces WHERE id = ${param})) + 2) END`
}
