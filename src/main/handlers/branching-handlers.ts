import { randomUUID } from 'node:crypto'
import { keyOf, type PathKey } from '../fs/paths'
import type { ConflictChoice } from '../journal/rewind/apply'
import type { Handlers } from '../rpc/dispatcher'
import { continueInAgent } from '../sources/continue/continue-service'
import { mergeBranch, planMerge } from '../transcripts/merge'
import { unmergeBranch } from '../transcripts/unmerge'
import type { HandlerContext } from './context'
import { pathFromId } from './journal-handlers'
import { confirmedSet, resultOutput } from './rewind-handlers'

type BranchingHandlers = Pick<Handlers, 'sessions.fork' | 'sessions.planMerge' | 'sessions.merge' | 'sessions.unmerge' | 'sessions.continueInAgent'>

export function branchingHandlers(ctx: HandlerContext): BranchingHandlers {
  const { store, recorder, rewinds } = ctx
  return {
    'sessions.fork': async ({ sessionId, turn, title, withFiles, token, choices, defaultChoice, confirmed, excluded }) => {
      const fork = { atTurn: turn, ...(title ? { title } : {}) }
      if (!withFiles) return { sessionId: recorder.fork(sessionId, fork).id, rewind: null }
      const uid = randomUUID()
      const session = store.sessions.require(sessionId)
      const result = await rewinds.applyTurn(sessionId, turn, {
        ...(token ? { token } : {}),
        choices: new Map<PathKey, ConflictChoice>(choices.map((c) => [keyOf(pathFromId(c.pathId)), c.choice])),
        defaultChoice,
        confirmed: confirmedSet(confirmed),
        excluded: confirmedSet(excluded),
        forkSessionUid: uid,
        alsoInTransaction: () => void recorder.fork(sessionId, { ...fork, uid })
      })
      ctx.feed.changed(['files', 'rewinds', 'sessions'], { workspaceId: session.workspaceId, sessionIds: [sessionId, uid] })
      return { sessionId: uid, rewind: resultOutput(result) }
    },

    'sessions.planMerge': ({ branchId }) => {
      const plan = planMerge(store, branchId)
      return {
        parentId: plan.parent.id,
        parentTitle: plan.parent.title,
        branchMessages: plan.branchMessages,
        parentMessagesSinceFork: plan.parentMessagesSinceFork,
        alreadyMerged: plan.alreadyMerged,
        lastMergedAt: plan.lastMerge?.createdAt ?? null
      }
    },

    'sessions.merge': ({ branchId, mode }) => mergeBranch(store, recorder, branchId, mode),

    'sessions.unmerge': ({ branchId }) => unmergeBranch(store, recorder, branchId),

    // Writes into the agent's folder the environment names (CLAUDE_CONFIG_DIR, CODEX_HOME, HOME),
    // the same one the importers read: the file written is imported back as a new session.
    'sessions.continueInAgent': ({ sessionId, turn, agent }) => continueInAgent(store, ctx.imports.environment, { sessionId, turn, agent })
  }
}
