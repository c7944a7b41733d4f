import type { Handlers } from '../rpc/dispatcher'
import { retentionStatus } from '../sources/retention-status'
import type { HandlerContext } from './context'

export function retentionHandlers(ctx: HandlerContext): Pick<Handlers, 'retention.status'> {
  return {
    'retention.status': () => retentionStatus(ctx.store, ctx.imports.environment)
  }
}
