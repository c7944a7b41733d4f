import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter'

/** Prints every skipped test with its reason at the end of the run: a skip must say why. */
export default class SkipReasonReporter implements Reporter {
  private readonly skipped: string[] = []

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status !== 'skipped') return
    const reason = test.annotations.find((a) => a.type === 'skip')?.description ?? 'no reason given'
    this.skipped.push(`  - ${test.titlePath().filter(Boolean).join(' › ')}\n    ${reason}`)
  }

  onEnd(): void {
    if (this.skipped.length > 0) console.log(`\nSkipped, and why:\n${this.skipped.join('\n')}\n`)
  }

  printsToStdio(): boolean {
    return true
  }
}
