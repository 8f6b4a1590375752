import { describe, expect, it } from 'vitest';
import { type CompileResult } from '../src/index.js';
import { compileSafely } from './invariants.js';

const codes = (r: CompileResult) => r.diagnostics.map((d) => d.code);
const md = (body: string) => `# Claims\n## 3. Entities and their fields\n\`\`\`yaml\n${body}\`\`\`\n`;

describe('bad input: diagnostics, never a crash or a hang', () => {
  it('an empty file', () => {
    const r = compileSafely('', { file: 'spec.md' });
    expect(r.ok).toBe(false);
    expect(codes(r)).toEqual(['NF003']);
  });

  it('whitespace only, in either notation', () => {
    for (const file of ['spec.md', 'spec.yaml']) {
      const r = compileSafely(' \r\n\t \n   ', { file });
      expect(codes(r)).toEqual(['NF003']);
    }
  });

  it('binary bytes: NUL, invalid UTF-8, a PNG header', () => {
    expect(codes(compileSafely(new Uint8Array([0x23, 0x00, 0x41]), { file: 'spec.md' }))).toEqual(['NF001']);
    expect(codes(compileSafely(new Uint8Array([0xff, 0xfe, 0xfd]), { file: 'spec.md' }))).toEqual(['NF001']);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(codes(compileSafely(png, { file: 'spec.yaml' }))).toEqual(['NF001']);
  });

  it('a file over the byte limit, as text or as bytes', () => {
    const big = `# Claims\n${'lorem ipsum '.repeat(200)}`;
    expect(codes(compileSafely(big, { file: 'spec.md', maxBytes: 1024 }))).toEqual(['NF002']);
    expect(codes(compileSafely(new TextEncoder().encode(big), { file: 'spec.md', maxBytes: 1024 }))).toEqual([
      'NF002',
    ]);
  });

  it('flow collections nested 100,000 deep, in YAML and in Markdown', () => {
    expect(codes(compileSafely(`entities: ${'['.repeat(100_000)}`, { file: 'spec.yaml' }))).toEqual([
      'NF104',
    ]);
    expect(codes(compileSafely(md(`entities: ${'{a: '.repeat(100_000)}\n`), { file: 'spec.md' }))).toEqual([
      'NF104',
    ]);
  });

  it('block mappings nested 200 deep', () => {
    const deep = Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i)}entities${i}:`).join('\n');
    expect(codes(compileSafely(`${deep} 1\n`, { file: 'spec.yaml' }))).toContain('NF104');
  });

  it('block nesting deep enough to overflow the YAML parser', () => {
    const r = compileSafely(`${'- '.repeat(50_000)}x\n`, { file: 'spec.yaml' });
    expect(r.ok).toBe(false);
    expect(codes(r)).toContain('NF104');
  });

  it('a billion laughs', () => {
    const levels = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]`);
    }
    const r = compileSafely(`constants:\n${levels.map((l) => `  ${l}`).join('\n')}\n`, { file: 'spec.yaml' });
    expect(codes(r)).toEqual(['NF103']);
  });

  it('an alias that refers to itself', () => {
    const r = compileSafely('entities: &e\n  Claim: *e\n', { file: 'spec.yaml' });
    expect(r.ok).toBe(false);
  });

  it('duplicate keys', () => {
    const r = compileSafely(md('entities:\n  Claim: { fields: { a: string } }\n  Claim: {}\n'), {
      file: 'spec.md',
    });
    expect(codes(r)).toEqual(['NF102']);
  });

  it('tabs as indentation', () => {
    const r = compileSafely('entities:\n  Claim:\n\tfields: {}\n', { file: 'spec.yaml' });
    expect(codes(r)).toContain('NF105');
  });

  it('the wrong type everywhere', () => {
    const everywhere = [
      'product: 1',
      'screens: [a]',
      'nav: {}',
      'entities: 3',
      'states: "x"',
      'rules: 5',
      'roles: [a]',
      'calls: true',
      'errors: 1',
      'constants: [1]',
      'limits: x',
    ].join('\n');
    const r = compileSafely(`${everywhere}\n`, { file: 'spec.yaml' });
    expect(r.ok).toBe(false);
    expect(r.diagnostics.filter((d) => d.code === 'NF202')).toHaveLength(11);
    const nested = [
      'entities:',
      '  Claim:',
      '    label: [1]',
      '    owner: { a: 1 }',
      '    fields:',
      '      a: { type: [string], required: maybe, maxLength: x, values: 3 }',
      '      b: 5',
      '      c: [1]',
      '      d: { type: enum, values: { a: 1 }, default: [] }',
      '      e: { type: money, currency: 978, min: abc, scale: -1 }',
      'states: { Claim: { initial: [draft], transitions: [submit] } }',
      'rules: [1, [2], { id: 3, entity: [Claim], assert: 4 }]',
      'roles: { a: { Claim: { read: 1, fields: 2 } }, b: 7, c: { inherits: { x: 1 } } }',
      'screens: { s: { entity: Claim, columns: 5, where: 3, sort: [1], actions: { a: 1 } } }',
      'nav: [{ screen: [1] }, 5]',
      'errors: { E_X: { status: "x", message: 3, field: [] } }',
      'limits: { pageSize: "ten", requestsPerMinute: [1] }',
      'calls: { timeoutMs: -1, retries: 1.5, offlineQueue: "yes" }',
    ].join('\n');
    const n = compileSafely(`${nested}\n`, { file: 'spec.yaml' });
    expect(n.ok).toBe(false);
    expect(n.diagnostics.length).toBeGreaterThan(15);
  });

  it('a section twice, and an unknown section number', () => {
    const twice = compileSafely('# T\n## 3. A\nnot shown.\n## 3. B\nnot shown.\n', { file: 'spec.md' });
    expect(codes(twice)).toEqual(['NF006']);
    const ten = compileSafely('# T\n## 1. A\nnot shown.\n## 10. B\n```yaml\nentities: 1\n```\n', {
      file: 'spec.md',
    });
    expect(codes(ten)).toEqual(['NF005']);
  });

  it('an unclosed fence', () => {
    const r = compileSafely('# T\n## 3. E\n```yaml\nentities:\n  Claim: { fields: { a: string } }\n', {
      file: 'spec.md',
    });
    expect(codes(r)).toEqual(['NF008']);
  });

  it('an expression that does not parse, and one of 1 MB', () => {
    const rule = (assert: string) =>
      `entities:\n  Claim: { fields: { amount: integer } }\nrules:\n  - { id: r, entity: Claim, assert: "${assert}" }\n`;
    expect(codes(compileSafely(rule('amount >> (('), { file: 'spec.yaml' }))).toEqual(['NF401']);
    expect(codes(compileSafely(rule(`${'amount + '.repeat(111_111)}1 > 0`), { file: 'spec.yaml' }))).toEqual([
      'NF406',
    ]);
    expect(codes(compileSafely(rule(`${'!'.repeat(4000)}true`), { file: 'spec.yaml' }))).toEqual(['NF406']);
  });

  it('an ICU message nested thousands deep', () => {
    const deep = `${'{n, plural, other {'.repeat(3000)}x${'}}'.repeat(3000)}`;
    const r = compileSafely(`errors:\n  E_X: { message: "${deep}" }\n`, { file: 'spec.yaml' });
    expect(r.ok).toBe(false);
  });

  it('CRLF line endings keep lines and columns', () => {
    const r = compileSafely(
      md('entities:\n  Claim:\n    fields:\n      a: { type: strng }\n').replace(/\n/g, '\r\n'),
      {
        file: 'spec.md',
      },
    );
    expect(r.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(['7:18 NF205']);
  });

  it('a byte order mark keeps lines and columns', () => {
    const text = `\ufeff${md('entities:\n  Claim:\n    fields:\n      a: { type: strng }\n')}`;
    const r = compileSafely(new TextEncoder().encode(text), { file: 'spec.md' });
    expect(r.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(['7:18 NF205']);
    const y = compileSafely('\ufeffentities:\n  Claim: { fields: { a: string } }\n', { file: 'spec.yaml' });
    expect(y.ok).toBe(true);
  });

  it('roles that share ancestors in a long chain', () => {
    const roles = Array.from({ length: 60 }, (_, i) => {
      const parents = [i + 1, i + 2].filter((j) => j < 60).map((j) => `r${j}`);
      return `  r${i}: { inherits: [${parents.join(', ')}] }`;
    });
    const r = compileSafely(`roles:\n${roles.join('\n')}\n`, { file: 'spec.yaml' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.model.roles['r0']!.inherits).toHaveLength(59);
  });
});

describe('huge names', () => {
  it('are clipped in messages, so one diagnostic stays one readable line', () => {
    const name = 'k'.repeat(1_000_000);
    const result = compileSafely(`entities:\n  Claim:\n    fields: { title: ${name} }\n`, {
      file: 'spec.yaml',
    });
    expect(codes(result)).toEqual(['NF205']);
    for (const d of result.diagnostics) {
      expect(d.message.length).toBeLessThanOrEqual(400);
      expect(d.message.endsWith('…')).toBe(true);
      expect((d.hint ?? '').length).toBeLessThanOrEqual(400);
    }
  });
});
