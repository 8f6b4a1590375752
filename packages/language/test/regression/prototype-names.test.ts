import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';

// Found by the property test: names like `constructor` or `toString` were looked up on plain
// objects and found their prototype, crashing the compiler or accepting an undeclared name.
describe('names that are members of every JavaScript object', () => {
  const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];
  const codes = (text: string) => {
    const r = compile(text, { file: 'spec.yaml' });
    expect(r.ok).toBe(false);
    return r.diagnostics.map((d) => d.code);
  };

  it.each(names)('`%s` as the entity of a rule is an undeclared entity', (name) => {
    expect(
      codes(
        `entities:\n  A: { fields: { a: string } }\nrules:\n  - { id: r, entity: ${name}, assert: 'true' }\n`,
      ),
    ).toEqual(['NF301']);
  });

  it.each(names)('`%s` as a parent role is an undeclared role', (name) => {
    expect(codes(`roles:\n  r: { inherits: ${name} }\n`)).toEqual(['NF304']);
  });

  it.each(names)('`%s` as a top-level key is not part of the notation', (name) => {
    expect(codes(`${name}: {}\n`)).toEqual(['NF011']);
  });

  it.each(names)('`%s` as an error code or a field is not declared', (name) => {
    const text = [
      'entities:',
      `  A: { fields: { a: string }, display: ${name} }`,
      'states:',
      `  A: { initial: a, transitions: { go: { from: a, to: b, require: [${name}] } } }`,
      'rules:',
      `  - { id: r, entity: A, assert: 'true', error: ${name} }`,
    ].join('\n');
    expect(codes(`${text}\n`)).toEqual(['NF302', 'NF302', 'NF305']);
  });

  it('a field may still be named `constructor`', () => {
    const r = compile('entities:\n  A: { display: constructor, fields: { constructor: string } }\n', {
      file: 'spec.yaml',
    });
    expect(r.diagnostics).toEqual([]);
    expect(r.ok).toBe(true);
  });
});
