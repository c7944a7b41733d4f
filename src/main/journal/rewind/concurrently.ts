/**
 * Run `work` on every item with at most `limit` in flight: for file-system calls that each wait
 * on the disk (fsyncs, unlinks that free blocks), where a few at once overlap their waits.
 */
export async function forEachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items]
  const runner = async (): Promise<void> => {
    for (let item = queue.pop(); item !== undefined; item = queue.pop()) await work(item)
  }
  await Promise.all(Array.from({ length: Math.min(limit, queue.length) }, runner))
}
