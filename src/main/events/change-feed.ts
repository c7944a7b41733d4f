import type { Entity, EventMessage } from '../../shared/contract'

type Listener = (event: EventMessage) => void

/**
 * The main process's push channel. Writers report what changed; reports made in the same tick
 * are merged into one `data.changed` so a bulk write does not flood the renderers.
 */
export class ChangeFeed {
  private readonly listeners = new Set<Listener>()
  private pending: { entities: Set<Entity>; workspaceIds: Set<number>; sessionIds: Set<string> } | null = null

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  publish(event: EventMessage): void {
    for (const listener of this.listeners) listener(event)
  }

  changed(entities: Entity[], scope: { workspaceId?: number; sessionIds?: string[] } = {}): void {
    if (!this.pending) {
      this.pending = { entities: new Set(), workspaceIds: new Set(), sessionIds: new Set() }
      setImmediate(() => this.flush())
    }
    for (const entity of entities) this.pending.entities.add(entity)
    if (scope.workspaceId !== undefined) this.pending.workspaceIds.add(scope.workspaceId)
    for (const id of scope.sessionIds ?? []) this.pending.sessionIds.add(id)
  }

  private flush(): void {
    const pending = this.pending
    this.pending = null
    if (!pending || pending.entities.size === 0) return
    const [onlyWorkspace] = pending.workspaceIds
    this.publish({
      name: 'data.changed',
      payload: {
        entities: [...pending.entities],
        ...(pending.workspaceIds.size === 1 && onlyWorkspace !== undefined ? { workspaceId: onlyWorkspace } : {}),
        ...(pending.sessionIds.size > 0 ? { sessionIds: [...pending.sessionIds] } : {})
      }
    })
  }
}
