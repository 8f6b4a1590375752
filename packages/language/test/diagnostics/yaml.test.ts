import { describe, it } from 'vitest';
import { expectDiagnostic, inSection, spec } from './expect-diagnostic.js';

describe('YAML', () => {
  it('NF101: YAML that does not parse', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string }
        rules: []
      `,
      { code: 'NF101', line: 3, column: 1, message: /^YAML: / },
    );
  });

  it('NF101: an alias with no anchor', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: *base
      `,
      { code: 'NF101', line: 2, column: 10, message: /alias `\*base` refers to no anchor/, hint: /&base/ },
    );
  });

  it('NF101: two YAML documents in one file', () => {
    expectDiagnostic('entities: {}\n---\nrules: []\n', { code: 'NF101', line: 2, column: 1 });
  });

  it('NF102: a mapping with the same key twice, at the second', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              title: string
              title: text
      `,
      { code: 'NF102', line: 5, column: 7, message: /unique/, hint: /remove or rename/ },
    );
  });

  it('NF102: inside a Markdown block, located in the file', () => {
    expectDiagnostic(inSection(9, 'constants:\n  MAX: 1\n  MAX: 2\n'), { code: 'NF102', line: 6, column: 3 });
  });

  it('NF103: an alias bomb (billion laughs)', () => {
    const bomb = spec`
      constants:
        A: &a [x, x, x, x, x, x, x, x, x, x]
        B: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
        C: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
        D: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
        E: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
        F: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
    `;
    // reported at the alias whose expansion crosses the budget
    expectDiagnostic(bomb, {
      code: 'NF103',
      line: 4,
      column: 14,
      message: /expand to more than 10000 nodes/,
      hint: /fewer nested aliases/,
    });
  });

  it('NF104: flow collections nested 100,000 deep', () => {
    expectDiagnostic(`entities: ${'['.repeat(100_000)}\n`, {
      code: 'NF104',
      line: 1,
      column: 1,
      message: /nests 100000 levels deep; at most 64/,
      hint: /flatten/,
    });
  });

  it('NF104: block mappings nested 200 deep', () => {
    const deep = Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' 1\n';
    expectDiagnostic(deep, { code: 'NF104', line: 66, column: 131, message: /more than 64 levels/ });
  });

  it('NF105: a tab used for indentation', () => {
    expectDiagnostic('entities:\n\tClaim: { fields: { title: string } }\n', {
      code: 'NF105',
      line: 2,
      column: 1,
      message: /Tabs/,
      hint: /indent with spaces/,
    });
  });
});
