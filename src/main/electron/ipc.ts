import { BrowserWindow, ipcMain } from 'electron'
import { EVENT_CHANNEL, channelOf, methodNames } from '../../shared/contract'
import { createDispatcher } from '../rpc/dispatcher'
import type { Runtime } from '../runtime/runtime'
import { isTrustedFrame } from './window'

/**
 * The Electron binding: one `ipcMain.handle` per contract method, all through the shared
 * handler wrapper with the sender frame as the caller; pushed events go to every window.
 */
export function bindIpc(runtime: Runtime): () => void {
  const dispatch = createDispatcher<Electron.IpcMainInvokeEvent>({
    handlers: runtime.handlers,
    authorize: (event) => (isTrustedFrame(event.senderFrame) ? null : 'This frame is not the Retrace window and may not call Retrace.'),
    onInternalError: (method, error) => console.error(`[retrace] ${method} failed:`, error)
  })
  for (const name of methodNames) {
    ipcMain.handle(channelOf(name), (event, input: unknown) => dispatch(name, input, event))
  }
  const unsubscribe = runtime.feed.subscribe((event) => {
    for (const window of BrowserWindow.getAllWindows()) window.webContents.send(EVENT_CHANNEL, event)
  })
  return () => {
    unsubscribe()
    for (const name of methodNames) ipcMain.removeHandler(channelOf(name))
  }
}
