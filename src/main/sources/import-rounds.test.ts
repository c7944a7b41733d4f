import { describe, expect, it } from 'vitest'
import { DEFAULT_ROUND_INTERVAL_MS, nextRoundDelay } from './import-rounds'

describe('the wait between background import rounds', () => {
  it('is the interval after a cheap round, even a short interval', () => {
    expect(nextRoundDelay(DEFAULT_ROUND_INTERVAL_MS, 400)).toBe(DEFAULT_ROUND_INTERVAL_MS)
    expect(nextRoundDelay(300, 40)).toBe(300)
  })

  it('grows with a costly round so rounds take at most 1% of the CPU', () => {
    // A round over 50,000 unchanged files that costs 5 s of CPU waits 495 s, not 45 s.
    expect(nextRoundDelay(DEFAULT_ROUND_INTERVAL_MS, 5000)).toBe(495_000)
    const delay = nextRoundDelay(300, 600)
    expect(600 / (600 + delay)).toBeLessThanOrEqual(0.01)
  })
})
