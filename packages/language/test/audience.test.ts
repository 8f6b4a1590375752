/** `product.audience` as one text or a list (decision 0064): the model always holds a list. */
import { describe, expect, it } from 'vitest';
import { compile } from '../src/index.js';
import { listed } from './diagnostics/expect-diagnostic.js';

const audienceOf = (yaml: string) => {
  const r = compile(`product:\n  name: Desk\n${yaml}`, { file: 'spec.yaml' });
  expect(r.ok, listed(r.diagnostics)).toBe(true);
  if (!r.ok) throw new Error(listed(r.diagnostics));
  return r.model.product.audience;
};

describe('product.audience', () => {
  it('one text is a list of one', () => {
    expect(audienceOf('  audience: Employees, their managers and finance.\n')).toEqual([
      'Employees, their managers and finance.',
    ]);
  });

  it('a list is kept entry by entry, blank entries dropped', () => {
    expect(audienceOf('  audience: [Members, "  ", Librarians]\n')).toEqual(['Members', 'Librarians']);
    expect(audienceOf('  audience:\n    - Members\n    - Librarians\n')).toEqual(['Members', 'Librarians']);
  });

  it('absent or empty is no one in particular', () => {
    expect(audienceOf('')).toEqual([]);
    expect(audienceOf('  audience:\n')).toEqual([]);
  });

  it('an entry that is not text is refused with its place', () => {
    const r = compile('product:\n  audience: [Members, { a: 1 }]\n', { file: 'spec.yaml' });
    expect(r.ok).toBe(false);
    expect(r.diagnostics[0]).toMatchObject({
      code: 'NF202',
      line: 2,
      column: 23,
      message: 'Each entry of `product.audience` must be text, found a mapping.',
    });
  });
});
