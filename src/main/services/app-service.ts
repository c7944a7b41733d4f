import type { Handlers } from '../rpc/dispatcher'
import type { ServiceContext } from './context'

export function appService(ctx: ServiceContext): Pick<Handlers, 'app.info'> {
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
