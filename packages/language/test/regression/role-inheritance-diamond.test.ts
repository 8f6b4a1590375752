import { expect, it } from 'vitest';
import { compile } from '../../src/index.js';

// Roles that share ancestors (r0 inherits r1 and r2, r1 inherits r2 and r3, …) were resolved by
// walking every path: 40 roles took minutes, and 200 would never finish (the paths number in the
// 10^41), so a regression fails this test by its timeout. Ancestors are now computed once per role.
it('resolves a chain of 200 roles sharing ancestors', () => {
  const roles = Array.from({ length: 200 }, (_, i) => {
    const parents = [i + 1, i + 2].filter((j) => j < 200).map((j) => `r${j}`);
    return `  r${i}: { inherits: [${parents.join(', ')}] }`;
  });
  const r = compile(`roles:\n${roles.join('\n')}\n`, { file: 'spec.yaml' });
  expect(r.ok).toBe(true);
  if (r.ok) expect(r.model.roles['r0']!.inherits).toHaveLength(199);
});

it('still reports a cycle, once', () => {
  const r = compile('roles:\n  a: { inherits: b }\n  b: { inherits: c }\n  c: { inherits: a }\n', {
    file: 'spec.yaml',
  });
  expect(r.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(['4:18 NF308']);
});
