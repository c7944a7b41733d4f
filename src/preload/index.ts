import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { EVENT_CHANNEL, channelOf, methodNames, type EventMessage, type RetraceBridge } from '../shared/contract'

// One function per contract method, generated from the contract so none can be missing or
// misspelled; the renderer never sees ipcRenderer itself. Input is validated in main.
const calls = Object.fromEntries(methodNames.map((name) => [name, (input: unknown) => ipcRenderer.invoke(channelOf(name), input)]))

const bridge = {
  ...calls,
  onEvent(listener: (event: EventMessage) => void): () => void {
    const wrapped = (_event: IpcRendererEvent, message: EventMessage) => listener(message)
    ipcRenderer.on(EVENT_CHANNEL, wrapped)
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, wrapped)
    }
  }
} as RetraceBridge

contextBridge.exposeInMainWorld('retrace', bridge)
