/** The server's one LRU: bounded, the least recently used entry going first. */
import { describe, expect, it } from 'vitest';
import { LruMap } from '../src/lru-map.js';
import { weakMemo } from '../src/memo.js';

describe('LruMap', () => {
  it('evicts the least recently used entry when full, a read counting as a use', () => {
    const lru = new LruMap<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect([...lru].map(([key]) => key)).toEqual(['a', 'c']);
    lru.delete('a');
    expect(lru.size).toBe(1);
    lru.set('c', 4);
    expect(lru.get('c')).toBe(4);
    lru.clear();
    expect(lru.size).toBe(0);
  });
});

describe('weakMemo', () => {
  it('computes once per key, undefined included', () => {
    let calls = 0;
    const of = weakMemo((key: object) => {
      calls++;
      return Object.keys(key).length === 0 ? undefined : calls;
    });
    const a = { a: 1 };
    const empty = {};
    expect(of(a)).toBe(of(a));
    expect(of(empty)).toBeUndefined();
    expect(of(empty)).toBeUndefined();
    expect(calls).toBe(2);
  });
});
