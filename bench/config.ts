import type { PlanConfig } from './generate/plan'
import { envInt } from './lib/env'

const sessions = envInt('RETRACE_BENCH_SESSIONS', 1_000)
const messages = envInt('RETRACE_BENCH_MESSAGES', 1_000_000)

/** The store the issue asks for: 1,000 sessions, 1,000,000 messages, one of them 10,000 long. */
export const plan: PlanConfig = {
  seed: 20250106,
  sessions,
  messages,
  bigIndex: Math.floor(sessions / 2),
  bigSize: Math.min(10_000, Math.floor(messages / 4))
}

export const settings = {
  /** Messages per transaction, the same for the recorder and the bare reference. */
  batchSize: 1_000,
  /**
   * Leading messages the bare reference also writes (measure 1). The issue allows a sample; a
   * fifth of the store keeps the run short. Set to 1000000 to compare on the whole store.
   */
  referenceMessages: Math.min(messages, envInt('RETRACE_BENCH_REFERENCE_MESSAGES', 200_000)),
  /** Keep the temporary data folder (and print where it is) instead of deleting it. */
  keep: process.env.RETRACE_BENCH_KEEP === '1',
  /** Repetitions of each latency measure after warm-up. */
  repetitions: envInt('RETRACE_BENCH_N', 50),
  warmup: 5
}
