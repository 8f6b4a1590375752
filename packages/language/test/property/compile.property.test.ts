import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, translationLocale } from '../../src/index.js';
import { brokenInvariant } from '../invariants.js';
import { RICH_SPEC } from './rich-spec.js';

// NINEFOLD_FUZZ=20 runs twenty times as many cases, for a longer hunt than the test suite's.
const scale = Number(process.env['NINEFOLD_FUZZ'] ?? 1) || 1;
const runs = (n: number) => Math.round(n * scale);

/** The property: compile never throws, and its result keeps every invariant. */
function holds(input: string | Uint8Array, file: string): void {
  let result;
  try {
    result = compile(input, { file });
  } catch (error) {
    throw new Error(`compile threw on ${file}: ${(error as Error).stack ?? String(error)}`, { cause: error });
  }
  const broken = brokenInvariant(result);
  if (broken !== null) throw new Error(`${broken} in ${file}`);
}

const examplesDir = new URL('../../../../examples/', import.meta.url);
/** Every example spec, read now: other examples may be added at any time. */
const examples: { name: string; text: string }[] = readdirSync(examplesDir)
  .filter((name) => /\.(md|txt|ya?ml)$/i.test(name) && translationLocale(name) === null)
  .sort()
  .map((name) => ({ name, text: readFileSync(new URL(name, examplesDir), 'utf8') }));
const sources = [{ name: 'rich-spec.md', text: RICH_SPEC }, ...examples];
// the mutation budget is shared, so the suite stays fast as examples are added
const perSource = Math.max(60, Math.floor(800 / sources.length));

const TOKENS = [
  ':',
  ': ',
  '- ',
  '{',
  '}',
  '[',
  ']',
  ',',
  '"',
  "'",
  '#',
  '&a ',
  '*a',
  '&b [*a, *a, *a]',
  '!!str ',
  '!!int ',
  '<<: *a',
  '|',
  '>-',
  '---',
  '...',
  '? ',
  '%YAML 1.2',
  '```',
  '```yaml',
  '~~~',
  '## 3. Entities',
  '## 10.',
  '# ',
  '\t',
  '\r',
  '\u00a0',
  '\ufeff',
  '\u2028',
  '😀',
  '\ud800',
  'null',
  '~',
  'true',
  'yes',
  '1e400',
  '-0',
  '.nan',
  '.inf',
  '0x1F',
  '99999999999999999999',
  '0.1234567890123456789',
  '2026-02-30',
  '25:61',
  'strng',
  'amout',
  'E_NOPE',
  'Claimz',
  'draftt',
  'User',
  'self',
  'old',
  'own',
  'now',
  'user.id',
  'has(',
  ')',
  '&&',
  '||',
  '==',
  "'x'",
  '{MAX_CLAIM}',
  '{',
  '"{n, plural, other {#}}"',
  'type: ref',
  'many: true',
  'owner: id',
  'inherits: [a, b]',
  'initial: nowhere',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
];

/** One edit of a document's lines; positions are reduced modulo the line count when applied. */
const mutation = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('swap' as const), at: fc.nat(), other: fc.nat() }),
  fc.record({ op: fc.constant('indent' as const), at: fc.nat(), by: fc.integer({ min: -6, max: 6 }) }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    col: fc.nat(),
    text: fc.string({ maxLength: 8 }),
  }),
  fc.record({
    op: fc.constant('token' as const),
    at: fc.nat(),
    col: fc.nat(),
    text: fc.constantFrom(...TOKENS),
  }),
  fc.record({ op: fc.constant('scalar' as const), at: fc.nat(), text: fc.constantFrom(...TOKENS) }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat(), col: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(text: string, edits: readonly Mutation[]): string {
  const lines = text.split('\n');
  for (const e of edits) {
    if (lines.length === 0) lines.push('');
    const i = e.at % lines.length;
    const line = lines[i]!;
    switch (e.op) {
      case 'delete':
        lines.splice(i, 1);
        break;
      case 'duplicate':
        lines.splice(i, 0, line);
        break;
      case 'swap': {
        const j = e.other % lines.length;
        [lines[i], lines[j]] = [lines[j]!, line];
        break;
      }
      case 'indent':
        lines[i] = e.by >= 0 ? ' '.repeat(e.by) + line : line.replace(new RegExp(`^ {0,${-e.by}}`), '');
        break;
      case 'insert':
      case 'token': {
        const c = e.col % (line.length + 1);
        lines[i] = line.slice(0, c) + e.text + line.slice(c);
        break;
      }
      case 'scalar': {
        // replace one word or quoted value of the line: a name, a number, a type, an expression
        const words = [...line.matchAll(/"[^"]*"|[A-Za-z0-9_.$-]+/g)];
        const w = words.length === 0 ? undefined : words[e.text.length % words.length];
        if (w !== undefined) lines[i] = line.slice(0, w.index) + e.text + line.slice(w.index + w[0].length);
        break;
      }
      case 'truncate':
        lines[i] = line.slice(0, e.col % (line.length + 1));
        break;
    }
  }
  return lines.join('\n');
}

describe('compile never throws and always keeps its invariants', () => {
  it('holds for every example as written', () => {
    expect(examples.map((e) => e.name)).toContain('seed.txt');
    for (const { name, text } of sources) {
      const result = compile(text, { file: name });
      expect(brokenInvariant(result), name).toBeNull();
    }
  });

  it('the rich spec compiles clean', () => {
    const result = compile(RICH_SPEC, { file: 'rich.md' });
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('holds for arbitrary text, in both notations', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.boolean(), (text, yaml) =>
        holds(text, yaml ? 'fuzz.yaml' : 'fuzz.md'),
      ),
      { numRuns: runs(500) },
    );
  });

  it('holds for arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.boolean(), (bytes, yaml) =>
        holds(bytes, yaml ? 'fuzz.yaml' : 'fuzz.md'),
      ),
      { numRuns: runs(300) },
    );
  });

  it('holds for documents assembled from YAML and Markdown tokens', () => {
    const piece = fc.oneof(
      fc.constantFrom(...TOKENS),
      fc.constantFrom('\n', '\n  ', '\n    ', 'entities', 'Claim', 'fields', 'rules', 'roles', 'states'),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.boolean(), (pieces, yaml) =>
        holds(pieces.join(''), yaml ? 'fuzz.yaml' : 'fuzz.md'),
      ),
      { numRuns: runs(500) },
    );
  });

  for (const { name, text } of sources) {
    it(`holds for mutations of ${name}`, () => {
      const file = /\.ya?ml$/i.test(name) ? name : `${name.replace(/\.\w+$/, '')}.md`;
      fc.assert(
        fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), (edits) =>
          holds(mutate(text, edits), file),
        ),
        { numRuns: runs(perSource) },
      );
    });
  }
});
