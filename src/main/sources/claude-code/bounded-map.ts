/** An insertion-ordered map that forgets its oldest entries beyond `limit`. */
export class BoundedMap<V> {
  private readonly map = new Map<string, V>()
  constructor(
    private readonly limit: number,
    entries: Iterable<readonly [string, V]> = []
  ) {
    for (const [key, value] of entries) this.set(key, value)
  }
  get(key: string): V | undefined {
    return this.map.get(key)
  }
  has(key: string): boolean {
    return this.map.has(key)
  }
  set(key: string, value: V): void {
    this.map.delete(key)
    this.map.set(key, value)
    if (this.map.size > this.limit) {
      const oldest = this.map.keys().next()
      if (!oldest.done) this.map.delete(oldest.value)
    }
  }
  delete(key: string): void {
    this.map.delete(key)
  }
  entries(): [string, V][] {
    return [...this.map.entries()]
  }
}
