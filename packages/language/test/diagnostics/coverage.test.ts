import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from '../../src/index.js';

const catalogue = Object.keys(DIAGNOSTIC_CODES).sort();
const here = new URL('./', import.meta.url);

/** The codes a test file asserts through `expectDiagnostic`, read from its source. */
function assertedCodes(): Set<string> {
  const codes = new Set<string>();
  for (const name of readdirSync(here)) {
    if (!name.endsWith('.test.ts') || name === 'coverage.test.ts') continue;
    const source = readFileSync(new URL(name, here), 'utf8');
    for (const m of source.matchAll(/code: '(NF\d{3})'/g)) codes.add(m[1]!);
  }
  return codes;
}

describe('the diagnostic catalogue', () => {
  it('has a test producing every code', () => {
    const asserted = assertedCodes();
    expect(catalogue.filter((code) => !asserted.has(code))).toEqual([]);
    expect([...asserted].filter((code) => !catalogue.includes(code))).toEqual([]);
  });

  it('is documented code by code in docs/diagnostics.md, with its severity and title', () => {
    const docs = readFileSync(new URL('../../../../docs/diagnostics.md', import.meta.url), 'utf8');
    const documented = [...docs.matchAll(/^### (NF\d{3})\b/gm)].map((m) => m[1]!);
    expect(documented.filter((code) => !catalogue.includes(code))).toEqual([]);
    expect(catalogue.filter((code) => !documented.includes(code))).toEqual([]);
    expect(new Set(documented).size).toBe(documented.length);
    for (const [code, info] of Object.entries(DIAGNOSTIC_CODES)) {
      const at = docs.indexOf(`### ${code}`);
      const entry = docs.slice(at, docs.indexOf('\n### ', at + 1) >>> 0);
      expect(entry, code).toContain(info.title);
      expect(entry, code).toMatch(new RegExp(`\\*\\*${info.severity}\\*\\*`));
    }
  });
});
