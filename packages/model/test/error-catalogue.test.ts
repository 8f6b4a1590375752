import { describe, expect, it } from 'vitest';
import {
  BUILTIN_ERRORS,
  type BuiltinErrorCode,
  type ErrorCode,
  type Problem,
  problemType,
  specErrorCode,
} from '../src/index.js';

describe('the built-in error catalogue', () => {
  it('has each code once, as E_ and capitals, with an error status, a message and a description', () => {
    const codes = BUILTIN_ERRORS.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const def of BUILTIN_ERRORS) {
      expect(def.code).toMatch(/^E_[A-Z_]+$/);
      expect(def.status).toBeGreaterThanOrEqual(400);
      expect(def.status).toBeLessThan(600);
      expect(def.message).not.toBe('');
      expect(def.description).not.toBe('');
      expect(def.builtin).toBe(true);
    }
  });

  it('makes a misspelt built-in code a type error, and a spec’s own code a marked string', () => {
    const known: BuiltinErrorCode = 'E_NOT_FOUND';
    // @ts-expect-error a code the catalogue does not have
    const misspelt: BuiltinErrorCode = 'E_NOT_FOUNDD';
    // @ts-expect-error an unmarked string is not a catalogue code either
    const unmarked: ErrorCode = 'E_OVER_APPROVAL_LIMIT';
    const own: ErrorCode = specErrorCode('E_OVER_APPROVAL_LIMIT');
    const problem: Problem = { status: 403, code: own, message: 'Over the limit.' };
    expect([known, misspelt, unmarked, problem.code]).toEqual([
      'E_NOT_FOUND',
      'E_NOT_FOUNDD',
      'E_OVER_APPROVAL_LIMIT',
      'E_OVER_APPROVAL_LIMIT',
    ]);
    expect(problemType(known)).toBe('urn:ninefold:error:E_NOT_FOUND');
  });
});
