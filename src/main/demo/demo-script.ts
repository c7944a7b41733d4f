import type { SessionWriter } from '../transcripts/session-writer'

type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

/** One step of a scripted demo session. */
export type Step =
  | { user: string }
  | { think: string }
  | { say: string; tokens?: [input: number, output: number] }
  | { tool: string; input: { [key: string]: Json }; result: string; error?: boolean; file?: { path: string; before: string | null; after: string | null } }
  | { compact: string }
  | { system: string }

const MODEL = 'claude-sonnet-4-5'

/** A clock that moves forward by a plausible amount for each step. */
export class DemoClock {
  constructor(private time: number) {}
  tick(seconds: number): number {
    this.time += seconds * 1000
    return this.time
  }
}

let callCounter = 0

/** Record `steps` into a session, one message (or tool call + result pair) per step. */
export function play(writer: SessionWriter, steps: Step[], clock: DemoClock): void {
  for (const step of steps) {
    if ('user' in step) {
      writer.append({ role: 'user', content: step.user, createdAt: clock.tick(45) })
    } else if ('think' in step) {
      writer.append({ role: 'reasoning', content: step.think, model: MODEL, createdAt: clock.tick(4) })
    } else if ('say' in step) {
      const [input, output] = step.tokens ?? [2400, 320]
      writer.append({
        role: 'assistant',
        content: step.say,
        model: MODEL,
        usage: { inputTokens: input, outputTokens: output, cacheReadTokens: Math.round(input * 0.8), cacheWriteTokens: 0, costUsd: (input * 3 + output * 15) / 1_000_000 },
        createdAt: clock.tick(9)
      })
    } else if ('tool' in step) {
      callCounter += 1
      const toolCallId = `toolu_demo_${String(callCounter).padStart(4, '0')}`
      writer.append({ role: 'tool_call', toolName: step.tool, toolCallId, toolInput: step.input, content: '', model: MODEL, createdAt: clock.tick(3) })
      writer.append({ role: 'tool_result', toolName: step.tool, toolCallId, content: step.result, isError: step.error ?? false, createdAt: clock.tick(2) })
      if (step.file) {
        const { path, before, after } = step.file
        writer.recordFileChange({ path, before: before === null ? null : Buffer.from(before), after: after === null ? null : Buffer.from(after) })
      }
    } else if ('compact' in step) {
      writer.compact(step.compact, { createdAt: clock.tick(6) })
    } else {
      writer.append({ role: 'system', content: step.system, createdAt: clock.tick(1) })
    }
  }
}
