/**
 * The depth check in front of the JSON parser: brackets count only outside strings, whatever the
 * escapes inside them, and the limit is the deepest nesting allowed.
 */
import { describe, expect, it } from 'vitest';
import { nestedDeeperThan } from '../src/http/json-body.js';

describe('nestedDeeperThan', () => {
  it('counts objects and arrays together, up to the limit and one past it', () => {
    expect(nestedDeeperThan('{"a":[1,{"b":2}]}', 3)).toBe(false);
    expect(nestedDeeperThan('{"a":[1,{"b":2}]}', 2)).toBe(true);
    expect(nestedDeeperThan('[[],[],[[]]]', 3)).toBe(false);
    expect(nestedDeeperThan('[[],[],[[[]]]]', 3)).toBe(true);
  });

  it('skips brackets inside strings, an escaped quote inside a string, and an escaped backslash before its end', () => {
    expect(nestedDeeperThan(JSON.stringify({ a: '[[[[{{{{' }), 1)).toBe(false);
    expect(nestedDeeperThan(JSON.stringify({ a: '"[[[[' }), 1)).toBe(false);
    expect(nestedDeeperThan(JSON.stringify({ a: '\\"[[[[' }), 1)).toBe(false);
    // the string ends after an escaped backslash: the brackets after it are structure
    expect(nestedDeeperThan(`["\\\\",[[]]]`, 2)).toBe(true);
  });

  it('leaves text that is not JSON to the parser', () => {
    expect(nestedDeeperThan('"an unclosed string [[[[', 1)).toBe(false);
    expect(nestedDeeperThan(']]]]', 1)).toBe(false);
  });
});
