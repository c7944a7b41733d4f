import { describe, expect, it } from 'vitest'
import { oneAtATimePerKey } from './one-at-a-time'

describe('oneAtATimePerKey', () => {
  it('runs one key\'s tasks one after the other, other keys side by side, and goes on after a failure', async () => {
    const serialize = oneAtATimePerKey()
    const log: string[] = []
    const task = (name: string, ms: number, fail = false) => async () => {
      log.push(`${name} start`)
      await new Promise((resolve) => setTimeout(resolve, ms))
      log.push(`${name} end`)
      if (fail) throw new Error(name)
      return name
    }
    const results = await Promise.allSettled([serialize('/a', task('a1', 30, true)), serialize('/a', task('a2', 5)), serialize('/b', task('b1', 10))])
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled', 'fulfilled'])
    expect(log).toEqual(['a1 start', 'b1 start', 'b1 end', 'a1 end', 'a2 start', 'a2 end'])
  })
})
