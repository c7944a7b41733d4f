import { z } from 'zod'
import { SourceIdSchema } from './domain'

/**
 * One part of an agent's own state, shown as a note (a memory file, as text) or a table (the
 * scheduled tasks, the session counters…). Generic on purpose: each source says what it has.
 */
export const AgentStateSectionSchema = z.object({
  title: z.string(),
  /** Text shown as it is (Markdown memory files are shown as their text, not rendered). */
  text: z.string().nullable(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  /** A remark under the section (a counter behind the checkpoints, a file missing…). */
  note: z.string().nullable()
})
export type AgentStateSection = z.infer<typeof AgentStateSectionSchema>

export const AgentStateSchema = z.object({
  sources: z.array(
    z.object({
      source: SourceIdSchema,
      label: z.string(),
      /** The folder the state was read from. */
      location: z.string(),
      sections: z.array(AgentStateSectionSchema),
      problems: z.array(z.string())
    })
  )
})
export type AgentState = z.infer<typeof AgentStateSchema>
