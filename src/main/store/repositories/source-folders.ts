import type { Db } from '../database'

export interface SourceFolder {
  id: number
  workspaceId: number
  source: string
  path: string
  addedAt: number
}

/** The `source_folders` table: folders added to a workspace as one source's history. */
export class SourceFolderRepository {
  private readonly listStmt
  private readonly getStmt
  private readonly addStmt
  private readonly removeStmt

  constructor(db: Db) {
    this.listStmt = db.prepare('SELECT id, workspace_id AS workspaceId, source, path, added_at AS addedAt FROM source_folders WHERE workspace_id = ? ORDER BY added_at, id')
    this.getStmt = db.prepare('SELECT id, workspace_id AS workspaceId, source, path, added_at AS addedAt FROM source_folders WHERE workspace_id = ? AND source = ? AND path = ?')
    this.addStmt = db.prepare('INSERT INTO source_folders (workspace_id, source, path, added_at) VALUES (?, ?, ?, ?) ON CONFLICT (workspace_id, source, path) DO NOTHING')
    this.removeStmt = db.prepare('DELETE FROM source_folders WHERE workspace_id = ? AND id = ?')
  }

  list(workspaceId: number): SourceFolder[] {
    return this.listStmt.all(workspaceId) as SourceFolder[]
  }

  /** Add the folder (once: added again, it stays as it was) and return its row. */
  add(workspaceId: number, source: string, path: string, now = Date.now()): SourceFolder {
    this.addStmt.run(workspaceId, source, path, now)
    return this.getStmt.get(workspaceId, source, path) as SourceFolder
  }

  /** True if the folder was there. Sessions already imported from it stay. */
  remove(workspaceId: number, id: number): boolean {
    return this.removeStmt.run(workspaceId, id).changes > 0
  }
}
