import { z } from 'zod'
import { ConflictChoiceSchema, methods, SessionIdSchema } from '../../shared/contract'

// The tools' arguments, from the contract's own types where one fits, each described for the
// model that fills it in. Sessions and folders are named as a model has them (ids, paths),
// never by the contract's numeric workspace ids.

export const sessionInput = SessionIdSchema.describe(
  "The session: Retrace's session id (search_history and list_sessions give it), the agent's own session id (Claude Code's, Codex's…), or the first characters of a Retrace id."
)

export const turnInput = methods['rewind.plan'].input.shape.turn.describe('The turn, counted from 1: each user prompt starts one.')

const folderPath = methods['workspaces.open'].input.shape.path

export const workspaceInput = folderPath.describe(
  "The project folder an agent worked in (absolute, or relative to where this server was started). A folder no longer on disk works if an agent's history records it."
)

export const fileInput = folderPath.describe('The file: relative to the workspace, or absolute.')

export const rewindIdInput = methods['rewind.undo'].input.shape.rewindId.describe('The id of a rewind, as rewind (or undo) reported it.')

export const tokenInput = methods['rewind.apply'].input.shape.token.describe(
  'The token a preview returned: the rewind applies only if the plan is still exactly that preview.'
)

export const onConflictInput = ConflictChoiceSchema.describe(
  "What to do with a conflict (a file changed since the agent wrote it): skip (the default: leave it as it is), overwrite (the user's change is lost, but undo brings it back), or keep-both (the rewound file is written, the user's version kept beside it)."
)

export const leaveInput = z.array(folderPath).max(10_000).describe('Files of the preview to leave exactly as they are (paths as the preview lists them).')
