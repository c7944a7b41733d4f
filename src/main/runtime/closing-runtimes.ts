/**
 * The runtimes of this process whose `close` was called, kept only once the test suite asks
 * (testing/runtime-close.setup.ts) so that it can check after each test that no background work
 * outlived them. Off in the app and the CLI: nothing is kept. No imports of its own, so every
 * test file loads it cheaply.
 */
export interface ClosingRuntime {
  /** Resolves once the runtime has closed its store. */
  closed: Promise<void>
  /** What is still under way ("importing workspace 2"…): nothing, once `closed` has resolved. */
  workUnderWay(): string[]
  /** Background work that failed after the close began: it needed the store being closed. */
  problems(): string[]
}

let closing: ClosingRuntime[] | null = null

/** Keep every runtime closed from now on, until `takeClosingRuntimes` hands them over. */
export function keepClosingRuntimes(): void {
  closing ??= []
}

export function trackClosing(runtime: ClosingRuntime): void {
  closing?.push(runtime)
}

/** The runtimes closed since the last call (a test's end takes them). */
export function takeClosingRuntimes(): ClosingRuntime[] {
  const all = closing ?? []
  if (closing) closing = []
  return all
}
