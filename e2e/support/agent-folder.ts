import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { FIXTURES } from '../../src/main/sources/testing/claude-home'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'
import { startRetraceServer, type RunningServer } from './retrace-server'

/** A temporary copy of an agent's fixture folder, served by a fresh `retrace serve`. */
export interface AgentFolder {
  root: string
  /** The copy (or an empty folder when no fixture was named). */
  folder: string
  server: RunningServer
  /** Open `path` (default: the copy) from the first screen; resolves once the workspace shows. */
  open(page: Page, path?: string): Promise<WorkspaceView>
  dispose(): Promise<void>
}

/**
 * Copy `fixture` (relative to fixtures/, e.g. `cianaparrot/deployment`) into a temporary folder
 * and start a server with a fresh data folder: the agents' own files are never opened in place.
 */
export async function agentFolder(fixture: string | null, name = 'agent'): Promise<AgentFolder> {
  const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-agent-'))
  const folder = join(root, name)
  if (fixture) cpSync(join(FIXTURES, fixture), folder, { recursive: true })
  else mkdirSync(folder)
  const server = await startRetraceServer([])
  return {
    root,
    folder,
    server,
    async open(page, path = folder) {
      const first = new FirstScreen(page)
      await first.goto(server.url)
      await first.openPath(path)
      const view = new WorkspaceView(page)
      await view.root.waitFor()
      return view
    },
    async dispose() {
      await server.stop()
      rmSync(root, { recursive: true, force: true })
    }
  }
}
