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

describe('calls', () => {
  const withCalls = (calls: string) =>
    compile(`product: { name: Shop }\nentities: { Item: { fields: { name: text } } }\ncalls: ${calls}\n`, {
      file: 'spec.yaml',
    });

  it('streams changes unless `calls.realtime` turns it off', () => {
    const on = withCalls('{ retries: 1 }');
    const off = withCalls('{ realtime: false }');
    if (!on.ok || !off.ok) throw new Error(JSON.stringify([on.diagnostics, off.diagnostics]));
    expect(on.model.calls.realtime).toBe(true);
    expect(off.model.calls.realtime).toBe(false);
    expect(withCalls('{ realtime: sometimes }').ok).toBe(false);
  });
});
