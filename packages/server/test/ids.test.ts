import { describe, expect, it } from 'vitest';
import { BlockRandom, newId } from '../src/ids.js';

describe('record ids', () => {
  it('are UUIDv7, each greater than the one before, never the same', () => {
    const ids = Array.from({ length: 5000 }, () => newId());
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('carry the time they were made in their first 48 bits', () => {
    const before = Date.now();
    const id = newId();
    const ms = Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now());
  });

  it('draw fresh random numbers once a block is used up', () => {
    const random = new BlockRandom(4);
    const drawn = Array.from({ length: 64 }, () => random.nextUint32());
    for (const n of drawn) expect(Number.isInteger(n) && n >= 0 && n < 2 ** 32).toBe(true);
    // 64 numbers from 16 refills of 4: a block that was not refilled would repeat itself
    const blocks = Array.from({ length: 16 }, (_, i) => drawn.slice(i * 4, i * 4 + 4).join());
    expect(new Set(blocks).size).toBe(16);
  });
});
