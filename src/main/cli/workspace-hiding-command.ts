import { resolve } from 'node:path'
import { RetraceError } from '../../shared/contract'
import type { CliCall } from './call'
import type { Output } from './commands'

/** `retrace workspaces hide|unhide <path>`: off the list and the first screen, or back on it. */
export async function setHiddenCommand(call: CliCall, options: { path: string; hidden: boolean; json: boolean; io: Output }): Promise<number> {
  const path = resolve(options.path)
  const { changed } = await call('workspaces.setHidden', { path, hidden: options.hidden })
  if (options.json) options.io.out(JSON.stringify({ path, hidden: options.hidden, changed }, null, 2))
  else if (options.hidden) options.io.out(changed ? `${path} is hidden: \`retrace workspaces --hidden\` lists it, \`retrace workspaces unhide\` puts it back.` : `${path} was hidden already.`)
  else options.io.out(changed ? `${path} is listed again.` : `${path} was not hidden.`)
  return 0
}

/**
 * `retrace workspaces forget <path> [--yes]`: remove the workspace and its sessions from the store,
 * after saying how many go and asking (consent is never assumed: no terminal, no --yes, exit 2).
 */
export async function forgetWorkspaceCommand(
  call: CliCall,
  options: { path: string; yes: boolean; json: boolean; io: Output; confirm: (question: string) => Promise<boolean | null> }
): Promise<number> {
  const path = resolve(options.path)
  const listed = (await call('workspaces.listAll', { refresh: 'background' })).items.find((item) => item.path === path)
  if (listed?.workspaceId === undefined || listed.workspaceId === null) {
    throw new RetraceError('NOT_FOUND', `Retrace holds no workspace at ${path}: nothing to forget${listed ? ' (only the agents\' histories record it)' : ''}.`)
  }
  const plan = await call('workspaces.forgetPlan', { workspaceId: listed.workspaceId })
  const warmups = plan.warmups > 0 ? ` (${plan.warmups} of them warm-ups)` : ''
  const comesBack = plan.hidden ? 'It stays hidden, so `import --all` leaves it alone.' : 'A later `retrace import --all` imports them again unless you hide it first (`retrace workspaces hide`).'
  const question = `Remove ${path} and its ${plan.sessions} session${plan.sessions === 1 ? '' : 's'}${warmups} from Retrace? The agents' own files are not touched. ${comesBack} [y/N] `
  const answer = options.yes || (await options.confirm(question))
  if (answer === null) {
    options.io.err(`retrace: Not a terminal, so nobody can be asked: nothing removed. Pass --yes to forget ${path} (${plan.sessions} sessions).`)
    return 2
  }
  if (!answer) {
    options.io.err('Nothing removed. (Answer y, or add --yes.)')
    return 1
  }
  const { removedSessions } = await call('workspaces.forget', { workspaceId: plan.workspaceId, sessions: plan.sessions })
  if (options.json) options.io.out(JSON.stringify({ path, removedSessions, hidden: plan.hidden }, null, 2))
  else options.io.out(`Forgot ${path}: ${removedSessions} session${removedSessions === 1 ? '' : 's'} removed from Retrace. ${plan.hidden ? '' : comesBack}`.trimEnd())
  return 0
}
