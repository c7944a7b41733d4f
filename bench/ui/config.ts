import { envInt } from '../lib/env'
import { chromiumPath } from '../../e2e/support/chromium'

// `npm run bench:ui`: the window's side of issue 5, in Debian's Chromium against `retrace serve`.
// Every size can be shrunk from the environment for a quick run (the figures are then not
// comparable with the targets, only with each other).

export const uiConfig = {
  seed: 20250321,
  /** The long session: opened to its first turn and scrolled end to end. */
  bigMessages: envInt('RETRACE_BENCH_UI_MESSAGES', 10_000, 10),
  /** Sessions in the workspace, the long one included (forks, sub-agents, successors): the graph. */
  sessions: envInt('RETRACE_BENCH_UI_SESSIONS', 2_000, 2),
  /** Sessions in a second workspace, the graph's size issue 41 reads at (drawn, panned and zoomed). */
  treeSessions: envInt('RETRACE_BENCH_UI_TREE_SESSIONS', 500, 2),
  /** Repetitions of the open and graph measures, each on a freshly loaded page. */
  runs: envInt('RETRACE_BENCH_UI_N', 10),
  /** Pixels scrolled per frame, end to end: a fast wheel fling (a page-down is about 700). */
  scrollStep: envInt('RETRACE_BENCH_UI_SCROLL_STEP', 400),
  /** How long to record an idle page for the baseline frame time. */
  idleMs: 3_000,
  viewport: { width: 1280, height: 800 },
  chromium: chromiumPath(),
  keep: process.env.RETRACE_BENCH_KEEP === '1',
  /** A folder to save a screenshot of each measured screen in (to look at what was measured). */
  shots: process.env.RETRACE_BENCH_UI_SHOTS || null
}

export type UiConfig = typeof uiConfig

/** The targets. */
export const TARGETS = {
  firstPaintMs: 300,
  scrollMedianMs: 16,
  graphMs: 1_000,
  /** Issue 41: the 500-session graph drawn after the click, and moved without a long task. */
  treeMs: 1_000,
  longTasks: 0
}

/** The same Chromium, with the same flags, as the end-to-end tests. */
export { CHROMIUM_ARGS } from '../../e2e/support/chromium'
