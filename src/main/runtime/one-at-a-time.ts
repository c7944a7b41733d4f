/**
 * Run tasks that share a key one after the other, tasks of different keys side by side: the
 * running app takes turns from several agents' hooks at once, and two captures of one workspace
 * must not scan it and write its file states at the same time.
 */
export function oneAtATimePerKey(): <T>(key: string, task: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>()
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve()
    const result = previous.then(task, task)
    const tail = result.then(
      () => undefined,
      () => undefined
    )
    tails.set(key, tail)
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key)
    })
    return result
  }
}
