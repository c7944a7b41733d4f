import { RetraceError } from '../../shared/contract'
import { checkRelPath, type RelPath } from '../fs/paths'
import { FileBlame } from '../journal/blame/file-blame'
import type { Handlers } from '../rpc/dispatcher'
import type { HandlerContext } from './context'
import { pathFromId } from './journal-handlers'

type BlameHandlers = Pick<Handlers, 'files.blame'>

export function blameHandlers(ctx: HandlerContext): BlameHandlers {
  return {
    'files.blame': ({ workspaceId, path, pathId }) => {
      if (!ctx.store.workspaces.get(workspaceId)) throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}.`)
      return new FileBlame(ctx.store, ctx.journal.blobs, workspaceId).run(relPathOf(path, pathId))
    }
  }
}

/** The file named either way, checked like any untrusted path (no `..`, not absolute). */
function relPathOf(path: string | undefined, pathId: string | undefined): RelPath {
  const raw = pathId !== undefined ? pathFromId(pathId) : Buffer.from((path ?? '').replace(/^\.\//, ''), 'utf8')
  return checkRelPath(raw)
}
