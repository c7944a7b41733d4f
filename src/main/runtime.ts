import { ChangeFeed } from './events/change-feed'
import { createHandlers } from './services'
import type { Host, ServiceContext } from './services/context'
import type { Handlers } from './rpc/dispatcher'
import { openStore } from './store/store'
import { Recorder } from './transcripts/recorder'

export interface Runtime extends ServiceContext {
  handlers: Handlers
  close(): void
}

/**
 * Wire the store, recorder, change feed and services for one data folder. Each binding
 * (Electron, web server, CLI) makes one runtime; tests make one per temporary folder.
 */
export function createRuntime(options: { dataDir: string; host: Host; version: string }): Runtime {
  const store = openStore(options.dataDir)
  const feed = new ChangeFeed()
  const recorder = new Recorder(store, feed)
  const ctx: ServiceContext = { store, recorder, feed, host: options.host, version: options.version }
  return { ...ctx, handlers: createHandlers(ctx), close: () => store.close() }
}
