import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FACETS } from '@ninefold/model';
import { compile } from '../src/index.js';

const seed = readFileSync(new URL('../../../examples/seed.txt', import.meta.url));

describe('the seed', () => {
  it('checks clean and reports all nine facets unspecified', () => {
    const result = compile(seed, { file: 'examples/seed.txt' });
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.summary.unspecified).toEqual([...FACETS]);
    expect(result.model.product.name).toBe('Specification: client application of an unidentified product');
    expect(Object.keys(result.model.roles)).toEqual(['user']);
  });

  it('survives a JSON round trip unchanged', () => {
    const result = compile(seed, { file: 'seed.txt' });
    if (!result.ok) throw new Error('seed must compile');
    expect(JSON.parse(JSON.stringify(result.model))).toEqual(result.model);
  });
});
