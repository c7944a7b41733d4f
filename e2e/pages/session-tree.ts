import type { Locator, Page } from '@playwright/test'

export type TreeEdgeKind = 'fork' | 'sub-agent' | 'successor' | 'merge'

/** The workspace's sessions as a graph (React Flow), and the List | Graph toggle. */
export class SessionTreeView {
  readonly root: Locator
  readonly nodes: Locator
  readonly showGraph: Locator
  readonly showList: Locator
  readonly foldAll: Locator
  readonly unfoldAll: Locator
  readonly fitView: Locator
  readonly minimap: Locator

  constructor(readonly page: Page) {
    this.root = page.getByTestId('session-tree')
    this.nodes = this.root.getByTestId('tree-node')
    this.showGraph = page.getByTestId('session-view-graph')
    this.showList = page.getByTestId('session-view-list')
    this.foldAll = page.getByTestId('tree-collapse-all')
    this.unfoldAll = page.getByTestId('tree-expand-all')
    this.fitView = this.root.locator('.react-flow__controls-fitview')
    this.minimap = this.root.getByTestId('rf__minimap')
  }

  async open(): Promise<void> {
    await this.showGraph.click()
    await this.root.waitFor()
  }

  node(title: string): Locator {
    return this.nodes.filter({ hasText: title })
  }

  /** React Flow's focusable wrapper around a node (what Tab lands on). */
  focusable(title: string): Locator {
    return this.root.locator('.react-flow__node').filter({ hasText: title })
  }

  async sessionId(title: string): Promise<string> {
    return (await this.node(title).getAttribute('data-session-id')) ?? ''
  }

  edges(kind: TreeEdgeKind): Locator {
    return this.root.locator(`.react-flow__edge.tree-edge-${kind}`)
  }

  edge(kind: TreeEdgeKind, sourceId: string, targetId: string): Locator {
    return this.root.locator(`[data-testid^="rf__edge-${kind}:${sourceId}->${targetId}"]`)
  }

  /** Titles of the cards not wholly inside the graph's viewport. */
  async cardsOutsideView(): Promise<string[]> {
    const pane = await this.root.boundingBox()
    if (!pane) return ['(no graph)']
    const outside: string[] = []
    for (const card of await this.nodes.all()) {
      const box = await card.boundingBox()
      const inside = box && box.x >= pane.x && box.y >= pane.y && box.x + box.width <= pane.x + pane.width && box.y + box.height <= pane.y + pane.height
      if (!inside) outside.push((await card.getAttribute('data-session-id')) ?? '?')
    }
    return outside
  }

  subAgentToggle(title: string): Locator {
    return this.node(title).getByTestId('tree-toggle')
  }
}
