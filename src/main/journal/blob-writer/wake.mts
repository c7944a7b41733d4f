/** Bump a counter of the shared memory of a rewind's threads, which others Atomics.wait on, and wake them. */
export function wake(shared: Int32Array, slot: number): void {
  Atomics.add(shared, slot, 1)
  Atomics.notify(shared, slot)
}
