import { expect } from 'vitest';
import { compile, DIAGNOSTIC_CODES, type CompileOptions, type CompileResult } from '../src/index.js';

/**
 * What every compile must satisfy, whatever the input: a model that survives JSON, or at least one
 * error; every diagnostic located (1-based), with a catalogued code, its severity and a message.
 * Returns a description of the first broken invariant, or null.
 */
export function brokenInvariant(result: CompileResult): string | null {
  for (const d of result.diagnostics) {
    const info = (DIAGNOSTIC_CODES as Record<string, { severity: string } | undefined>)[d.code];
    if (info === undefined) return `unknown code ${d.code}`;
    if (d.severity !== info.severity) return `${d.code} has severity ${d.severity}`;
    if (!(Number.isInteger(d.line) && d.line >= 1)) return `${d.code} at line ${d.line}`;
    if (!(Number.isInteger(d.column) && d.column >= 1)) return `${d.code} at column ${d.column}`;
    if (d.endLine < d.line || (d.endLine === d.line && d.endColumn < d.column))
      return `${d.code} ends before it starts`;
    if (typeof d.message !== 'string' || d.message.trim() === '') return `${d.code} has no message`;
    if (d.hint !== null && (typeof d.hint !== 'string' || d.hint.trim() === ''))
      return `${d.code} has an empty hint`;
  }
  if (result.ok) {
    if (result.diagnostics.some((d) => d.severity === 'error')) return 'ok with an error';
    const json = JSON.stringify(result.model);
    if (JSON.stringify(JSON.parse(json)) !== json) return 'the model does not survive JSON';
    try {
      expect(JSON.parse(json)).toEqual(result.model);
    } catch {
      return 'the model changes through JSON';
    }
  } else if (!result.diagnostics.some((d) => d.severity === 'error')) return 'failed without an error';
  return null;
}

/**
 * Compiles and asserts the invariants; returns the result. A compile that blows up on hostile input
 * does not finish within the test's timeout, which fails the test without timing it here: speed is
 * measured in `bench/compile`, never asserted.
 */
export function compileSafely(input: string | Uint8Array, options: CompileOptions): CompileResult {
  const result = compile(input, options);
  expect(brokenInvariant(result)).toBeNull();
  return result;
}
