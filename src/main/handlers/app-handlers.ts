import type { Handlers } from '../rpc/dispatcher'
import type { HandlerContext } from './context'

export function appHandlers(ctx: HandlerContext): Pick<Handlers, 'app.info'> {
  return {
    'app.info': () => ({
      name: 'Retrace',
      version: ctx.version,
      binding: ctx.host.binding,
      dataDir: ctx.store.dataDir,
      platform: process.platform,
      nativeFolderDialog: ctx.host.pickFolder !== undefined
    })
  }
}
