import { expect, it } from 'vitest';
import { compile } from '../../src/index.js';

// A string input was measured in UTF-16 units, so the same file passed as text could be three
// times larger than the limit it failed as bytes.
it('measures a text input in UTF-8 bytes, as the file holding it', () => {
  const text = `# ${'€'.repeat(1000)}\n`; // 3,003 bytes, 1,003 characters
  expect(compile(text, { file: 'spec.md', maxBytes: 2048 }).diagnostics.map((d) => d.code)).toEqual([
    'NF002',
  ]);
  expect(compile(new TextEncoder().encode(text), { file: 'spec.md', maxBytes: 2048 }).ok).toBe(false);
  expect(compile(text, { file: 'spec.md', maxBytes: 4096 }).diagnostics.map((d) => d.code)).toEqual([
    'NF004',
  ]);
});
