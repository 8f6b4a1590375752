import { expect, it } from 'vitest';
import { compile } from '../../src/index.js';

// `type: int` listed every type instead of suggesting `integer`: the alias itself was filtered out
// of the candidates it is looked up in.
it.each([
  ['int', 'integer'],
  ['bool', 'boolean'],
  ['float', 'decimal'],
  ['number', 'decimal'],
  ['timestamp', 'datetime'],
  ['str', 'string'],
])('`type: %s` suggests `%s`', (written, meant) => {
  const r = compile(`entities:\n  Claim:\n    fields:\n      a: { type: ${written} }\n`, {
    file: 'spec.yaml',
  });
  expect(r.diagnostics).toMatchObject([{ code: 'NF205', hint: `did you mean \`${meant}\`?` }]);
});
