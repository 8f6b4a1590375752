import { expect, it } from 'vitest';
import { compile } from '../../src/index.js';

// Found by the property test: a field named `old` (or `user`, `self`, `int`, `package`…) made the
// CEL environment throw "'old' is already registered" and crashed the compiler.
it.each([
  'old',
  'self',
  'own',
  'user',
  'now',
  'today',
  'int',
  'string',
  'map',
  'type',
  'package',
  'optional',
])('a field named `%s` is reserved (NF209), not a crash', (name) => {
  const text = [
    'entities:',
    '  Claim:',
    '    owner: submittedBy',
    '    fields:',
    '      submittedBy: { type: ref, to: User }',
    `      ${name}: integer`,
    'rules:',
    '  - { id: positive, entity: Claim, on: [update], assert: "amount > 0" }',
  ].join('\n');
  const r = compile(`${text}\n`, { file: 'spec.yaml' });
  expect(r.ok).toBe(false);
  expect(r.diagnostics[0]).toMatchObject({
    code: 'NF209',
    line: 6,
    column: 7,
    message: `\`${name}\` is a name that expressions already use, so no field can be called that.`,
  });
});
