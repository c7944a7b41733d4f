import { envInt } from '../lib/env'

// The file journal benchmark of the issue: a 10,000-file, 200 MB workspace captured and rewound
// by Retrace and by a shadow git repository, plus one 1 GB file in a child process. Every knob
// can be shrunk from the environment for a quick run (numbers are then not comparable with
// the targets, only with each other).

const MIB = 1024 * 1024

const files = envInt('RETRACE_BENCH_FILES', 10_000, 100)

export const journalConfig = {
  seed: 20250214,
  files,
  /** Total workspace size; the file sizes drawn from their distributions are scaled to it. */
  workspaceBytes: envInt('RETRACE_BENCH_WORKSPACE_MB', 200) * MIB,
  /** The large-file measure; 0 skips it. */
  bigFileBytes: envInt('RETRACE_BENCH_BIG_FILE_MB', 1024, 0) * MIB,
  /** Files edited per round: the 100 and 1,000 (fewer if the workspace is smaller). */
  smallEdit: Math.min(100, Math.floor(files / 10)),
  largeEdit: Math.min(1_000, Math.floor(files / 2)),
  /**
   * Repetitions: first captures are expensive (the whole workspace each), edit rounds are not.
   * The first 1,000-file round is Retrace's first large rewind, which starts its writer threads:
   * with five rounds the median is one of the others, and the max shows that start.
   */
  firstCaptureRounds: envInt('RETRACE_BENCH_FIRST_ROUNDS', 3),
  smallEditRounds: envInt('RETRACE_BENCH_SMALL_ROUNDS', 7),
  largeEditRounds: envInt('RETRACE_BENCH_LARGE_ROUNDS', 5),
  /** Extra small-edit rounds whose captures start a new worker (a diagnosis, not a table row). */
  coldCaptureRounds: envInt('RETRACE_BENCH_COLD_ROUNDS', 3, 0),
  /** Turns whose begin and end hooks run as processes, as an agent runs them (0 skips it; needs the built CLI). */
  hookRounds: envInt('RETRACE_BENCH_HOOK_ROUNDS', 5, 0),
  /** Untouched files re-hashed after every rewind, besides every edited one. */
  verifySample: 50,
  keep: process.env.RETRACE_BENCH_KEEP === '1'
}

export type JournalConfig = typeof journalConfig
