import { z } from 'zod'
import { BlameSchema } from './blame'
import { WorkspaceIdSchema } from './domain'
import { PathIdSchema } from './journal'
import type { MethodSpec } from './method-spec'

/** Blame (merged into the contract in methods.ts). */
export const blameMethods = {
  /**
   * Who last wrote each line of a workspace file: the session and turn (agent, time, prompt)
   * from the journal's versions across every session and source, or a change no turn made.
   * The file is named by `path` (workspace-relative, UTF-8) or `pathId` (base64 of its raw
   * bytes, as other file methods give it). Refused (VALIDATION) for a binary, linked or
   * too-large file; NOT_FOUND when no journal entry ever touched it.
   */
  'files.blame': {
    input: z
      .object({ workspaceId: WorkspaceIdSchema, path: z.string().min(1).max(4096).optional(), pathId: PathIdSchema.optional() })
      .strict()
      .refine((input) => (input.path === undefined) !== (input.pathId === undefined), 'Give path or pathId (one of them).'),
    output: BlameSchema
  }
} as const satisfies Record<string, MethodSpec>
