import { expect, it } from 'vitest';
import { compile } from '../../src/index.js';

// Found by the property test: a field named `old` (or `user`, `self`, `int`, `package`…) made the
// CEL environment throw "'old' is already registered" and crashed the compiler. Since decision 0064
// the names an expression keeps for itself (`user`, `now`, `int`, `type`…) are fields reached as
// `self.<name>`; `self` and CEL's keywords stay reserved (NF209).
const claim = (name: string) =>
  [
    'entities:',
    '  Claim:',
    '    owner: submittedBy',
    '    fields:',
    '      submittedBy: { type: ref, to: User }',
    `      ${name}: integer`,
    'rules:',
    `  - { id: positive, entity: Claim, on: [update], assert: "self.${name} > 0 && old.${name} >= 0" }`,
  ].join('\n') + '\n';

it.each(['old', 'own', 'user', 'now', 'today', 'int', 'string', 'map', 'type', 'optional'])(
  'a field named `%s` compiles, and expressions reach it as `self.%s`',
  (name) => {
    const r = compile(claim(name), { file: 'spec.yaml' });
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.ok && r.model.entities['Claim']?.fields[name]?.type).toBe('integer');
  },
);

it.each(['self', 'package', 'null', 'true'])(
  'a field named `%s` is reserved (NF209), not a crash',
  (name) => {
    const r = compile(claim(name).replace(/rules:\n.*\n$/, ''), { file: 'spec.yaml' });
    expect(r.ok).toBe(false);
    expect(r.diagnostics[0]).toMatchObject({
      code: 'NF209',
      line: 6,
      column: 7,
      message: `\`${name}\` is a name that expressions already use, so no field can be called that.`,
    });
  },
);
