import type { z } from 'zod'

/** A method of the contract: its input and output schemas. The doc comment sits on its key. */
export interface MethodSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I
  output: O
}
