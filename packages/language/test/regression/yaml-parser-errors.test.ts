import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';

describe('YAML problems get their own codes', () => {
  // the parser reports its own stack overflow as RESOURCE_EXHAUSTION, which was read as an alias bomb
  it('a block nesting that overflows the parser is NF104, not an alias bomb', () => {
    const r = compile(`${'- '.repeat(50_000)}x\n`, { file: 'spec.yaml' });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['NF104']);
    expect(r.diagnostics[0]!.message).toBe('This YAML nests too deeply to parse.');
  });

  // an alias to no anchor was reported as "aliases expand to more than 10000 nodes"
  it('an alias with no anchor is NF101 and names the alias', () => {
    const r = compile('entities:\n  Claim: *claim\n', { file: 'spec.yaml' });
    expect(r.diagnostics).toMatchObject([
      {
        code: 'NF101',
        line: 2,
        column: 10,
        message: expect.stringContaining('`*claim` refers to no anchor'),
      },
    ]);
  });
});
