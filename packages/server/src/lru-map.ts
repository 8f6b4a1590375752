/**
 * The one LRU of the server: a `Map` bounded to `max` entries, the least recently used going first.
 * Used for the prepared statements (`db/statement-cache.ts`), the compiled SQL texts
 * (`resources/compiled-sql.ts`) and the session cache (`auth/session-cache.ts`): each is a cache
 * whose miss only costs work, never a wrong answer. The sign-in limiter bounds its memory of
 * failures with one too (`auth/login-limiter.ts`, which says what forgetting costs).
 */

/**
 * A Map of at most `max` entries; `get` marks an entry most recently used, `set` evicts the least
 * recently used when full.
 *
 * @example const lru = new LruMap<string, number>(2); lru.set('a', 1); lru.get('a') // 1
 */
export class LruMap<K, V> {
  readonly #map = new Map<K, V>();
  readonly #max: number;
  /** The key most recently used: already last in the order, so a repeat moves nothing. */
  #last: K | undefined = undefined;

  constructor(max: number) {
    this.#max = max;
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    const hit = this.#map.get(key);
    if (hit !== undefined && key !== this.#last) {
      // a Map iterates in insertion order: re-inserting marks the entry most recently used
      this.#map.delete(key);
      this.#map.set(key, hit);
      this.#last = key;
    }
    return hit;
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    if (this.#map.size >= this.#max) {
      const oldest = this.#map.keys().next();
      if (oldest.done !== true) this.#map.delete(oldest.value);
    }
    this.#map.set(key, value);
    this.#last = key;
  }

  delete(key: K): void {
    this.#map.delete(key);
    if (key === this.#last) this.#last = undefined;
  }

  clear(): void {
    this.#map.clear();
    this.#last = undefined;
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.#map[Symbol.iterator]();
  }
}
