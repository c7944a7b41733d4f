import { app, BrowserWindow, dialog } from 'electron'
import { RetraceError } from '../../shared/contract'
import { createRuntime, type Runtime } from '../runtime/runtime'
import { openWorkspace } from '../handlers/workspace-handlers'
import { ensureDemoWorkspace } from '../demo/demo-workspace'
import { resolveDataDir } from '../store/data-dir'
import { APP_VERSION } from '../runtime/version'
import { notOwnerNotice } from '../runtime/data-folder-owner'
import { bindIpc } from './ipc'
import { installMenu } from './menu'
import { hardenApp } from './security'
import { createMainWindow } from './window'

// One Retrace per user: a second launch focuses the first window instead of opening the
// store twice.
if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  void app.whenReady().then(start)
}

function dataDirFromArgs(argv: string[]): string | undefined {
  const index = argv.indexOf('--data-dir')
  return index >= 0 ? argv[index + 1] : argv.find((a) => a.startsWith('--data-dir='))?.slice('--data-dir='.length)
}

/** Start-up recovery failed: every call says why (handlers/index.ts); the menu says it here. */
function showStartupFailure(error: unknown): void {
  dialog.showErrorBox('Retrace could not finish an interrupted rewind', error instanceof Error ? error.message : String(error))
}

async function pickFolder(): Promise<string | null> {
  const parent = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0]
  const options = { title: 'Open Workspace', properties: ['openDirectory' as const, 'createDirectory' as const] }
  const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options)
  return result.canceled ? null : (result.filePaths[0] ?? null)
}

function reportBackgroundError(error: unknown): void {
  process.stderr.write(`Retrace: a background import failed (tried again later): ${error instanceof Error ? error.message : String(error)}\n`)
}

function start(): void {
  hardenApp()
  let runtime: Runtime
  try {
    const dataDir = resolveDataDir({ flag: dataDirFromArgs(process.argv), fallback: app.getPath('userData') })
    // Every agent's history is imported in the background from the start, not only the open workspace's.
    // It also takes the turns agents' hooks hand over (runtime/hook-handoff-server.ts).
    const serveHooks = { log: (message: string) => process.stderr.write(`Retrace: ${message}\n`) }
    runtime = createRuntime({ dataDir, host: { binding: 'electron', pickFolder }, version: APP_VERSION, backgroundImport: true, onBackgroundError: reportBackgroundError, serveHooks })
    if (runtime.dataFolder?.owned === false) serveHooks.log(notOwnerNotice(dataDir, runtime.dataFolder.owner))
  } catch (error) {
    dialog.showErrorBox('Retrace cannot open its data', error instanceof Error ? error.message : String(error))
    app.exit(1)
    return
  }
  const unbind = bindIpc(runtime)
  let window = createMainWindow()

  const announceOpened = (workspaceId: number) => runtime.feed.publish({ name: 'workspace.opened', payload: { workspaceId } })
  // The window's calls wait for start-up recovery (handlers/index.ts); the menu's do the same.
  installMenu({
    openFolder: () => {
      void Promise.all([pickFolder(), runtime.ready]).then(([path]) => {
        if (!path) return
        try {
          announceOpened(openWorkspace(runtime, path))
        } catch (error) {
          dialog.showErrorBox('Cannot open this folder', error instanceof RetraceError ? error.message : String(error))
        }
      }).catch(showStartupFailure)
    },
    openDemo: () => void runtime.ready.then(() => announceOpened(ensureDemoWorkspace(runtime))).catch(showStartupFailure)
  })

  app.on('second-instance', () => {
    if (window.isDestroyed()) window = createMainWindow()
    if (window.isMinimized()) window.restore()
    window.focus()
  })
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) window = createMainWindow()
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  // A large rewind's set-aside files are removed just after it returns (rewind/set-aside.ts):
  // quitting waits the fraction of a second that takes rather than leave them for the next start.
  let rewindsSettled = false
  app.on('will-quit', (event) => {
    if (!rewindsSettled) {
      event.preventDefault()
      void runtime.rewinds.settled().then(() => {
        rewindsSettled = true
        app.quit()
      })
      return
    }
    unbind()
    runtime.close()
  })
}
