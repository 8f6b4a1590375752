import { expect } from 'vitest';
import {
  compile,
  DIAGNOSTIC_CODES,
  type CompileResult,
  type Diagnostic,
  type DiagnosticCode,
} from '../../src/index.js';

export interface ExpectedDiagnostic {
  readonly code: DiagnosticCode;
  readonly line: number;
  readonly column: number;
  readonly message?: RegExp;
  readonly hint?: RegExp;
  /** The file it is in, when not the spec: a translation file (decision 0068). */
  readonly file?: string;
}

/**
 * Removes the common indentation of a template literal and its first newline, so that a spec can
 * be written indented inside a test and still be read with the line numbers it shows.
 *
 * @example spec`
 *   entities:
 *     Claim: { fields: { title: string } }
 * ` // 'entities:\n  Claim: { fields: { title: string } }\n'
 */
export function spec(strings: TemplateStringsArray, ...values: unknown[]): string {
  const raw = String.raw({ raw: strings }, ...values).replace(/^\n/, '');
  const lines = raw.split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)![0].length);
  const cut = indents.length === 0 ? 0 : Math.min(...indents);
  return lines
    .map((l) => l.slice(cut))
    .join('\n')
    .replace(/[ ]+$/, '');
}

/** The file name a snippet is read as: Markdown when it has a `## N.` heading, YAML otherwise. */
function fileFor(src: string | Uint8Array): string {
  return typeof src === 'string' && /^#/m.test(src) ? 'spec.md' : 'spec.yaml';
}

/** One line per diagnostic, as `ninefold check` prints them, for failure messages. */
export function listed(diagnostics: readonly Diagnostic[]): string {
  if (diagnostics.length === 0) return '  (no diagnostics)';
  return diagnostics
    .map((d) => `  ${d.line}:${d.column}  ${d.code}  ${d.message}${d.hint ? `\n      hint: ${d.hint}` : ''}`)
    .join('\n');
}

/**
 * Compiles a spec snippet and asserts that it produces the diagnostic: its code at its line and
 * column, with the key words of its message and hint. An error also makes the compile fail.
 * Returns the diagnostic and the whole result for further checks.
 *
 * @example
 * expectDiagnostic(spec`
 *   entities:
 *     Claim: { fields: { title: { type: strng } } }
 * `, { code: 'NF205', line: 2, column: 39, hint: /did you mean `string`\?/ });
 */
export function expectDiagnostic(
  src: string | Uint8Array,
  expected: ExpectedDiagnostic,
  file: string = fileFor(src),
  options: { readonly maxBytes?: number; readonly translations?: Readonly<Record<string, string>> } = {},
): { diagnostic: Diagnostic; result: CompileResult } {
  const result = compile(src, { file, ...options });
  const found = result.diagnostics.find(
    (d) =>
      d.code === expected.code &&
      d.line === expected.line &&
      d.column === expected.column &&
      d.file === (expected.file ?? file),
  );
  if (found === undefined) {
    expect.fail(
      `expected ${expected.code} at ${expected.line}:${expected.column} in ${file}, found:\n${listed(result.diagnostics)}`,
    );
  }
  expect(found.severity).toBe(DIAGNOSTIC_CODES[expected.code].severity);
  expect(found.file).toBe(expected.file ?? file);
  expect(found.message.length).toBeGreaterThan(0);
  if (expected.message) expect(found.message).toMatch(expected.message);
  if (expected.hint) expect(found.hint ?? '').toMatch(expected.hint);
  if (found.severity === 'error') expect(result.ok).toBe(false);
  return { diagnostic: found, result };
}

/** Wraps YAML in a Markdown spec under section `n`, at a known line: the YAML starts on line 4. */
export function inSection(n: number, yaml: string): string {
  return `# Claims\n## ${n}. Section\n\`\`\`yaml\n${yaml}\`\`\`\n`;
}
