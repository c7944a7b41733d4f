import { afterEach } from 'vitest'
import { keepClosingRuntimes, takeClosingRuntimes } from '../runtime/closing-runtimes'

/**
 * After every test (vitest.config.mts's setupFiles): the runtimes the test closed finish closing
 * before the next test starts, so a cancelled import never runs on into another test's folders;
 * and a test fails when background work outlived its runtime's close: still under way once the
 * store was closed, or failing because the store it needed was closing (R41).
 */
keepClosingRuntimes()

afterEach(async () => {
  const closing = takeClosingRuntimes()
  await Promise.all(closing.map((runtime) => runtime.closed))
  const outlived = closing.flatMap((runtime) => runtime.workUnderWay())
  const failed = closing.flatMap((runtime) => runtime.problems())
  if (outlived.length > 0) throw new Error(`Background work was still under way after its runtime closed: ${outlived.join('; ')}. Runtime.close must wait for it (runtime/runtime.ts).`)
  if (failed.length > 0) throw new Error(`Background work failed after its runtime began to close: ${failed.join('; ')}. Runtime.close must cancel and wait for it before closing the store (runtime/runtime.ts).`)
})
