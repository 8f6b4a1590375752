import { isAlias, isMap, isScalar, isSeq, parseDocument, type Node as YamlNode, type Document } from 'yaml';
import { type DiagnosticBag, type Span } from '../diagnostics/diagnostic.js';
import { LIMITS } from './limits.js';

/** A YAML value with its place in the file, independent of the YAML library. */
export type YNode = YMap | YSeq | YScalar;

export interface YMap {
  readonly kind: 'map';
  readonly span: Span;
  /** Collections have no source text of their own; only scalars do. */
  readonly raw: '';
  readonly entries: readonly YEntry[];
}

export interface YEntry {
  readonly key: string;
  readonly keySpan: Span;
  readonly value: YNode;
}

export interface YSeq {
  readonly kind: 'seq';
  readonly span: Span;
  readonly raw: '';
  readonly items: readonly YNode[];
}

export interface YScalar {
  readonly kind: 'scalar';
  readonly span: Span;
  readonly value: string | number | boolean | null;
  /** The scalar as written, for exact decimals: `0.10` stays `0.10`. */
  readonly raw: string;
}

/** The kind of a node as a reader would name it in a message. */
export function describe(node: YNode): string {
  if (node.kind === 'map') return 'a mapping';
  if (node.kind === 'seq') return 'a list';
  if (node.value === null) return 'nothing (null)';
  if (typeof node.value === 'string') return `the text "${truncate(node.value)}"`;
  return `${typeof node.value === 'number' ? 'the number' : 'the boolean'} ${String(node.value)}`;
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

const YAML_CODES: Readonly<Record<string, 'NF102' | 'NF104' | 'NF105'>> = {
  DUPLICATE_KEY: 'NF102',
  // the parser reports its own stack overflow this way: block nesting too deep to compose
  RESOURCE_EXHAUSTION: 'NF104',
  TAB_AS_INDENT: 'NF105',
};

/**
 * Parses one YAML text (a whole file or one fenced block starting at `offset`) into a YNode tree.
 * Returns null when the text does not parse; every problem is reported to the bag.
 */
export function loadYaml(text: string, offset: number, bag: DiagnosticBag): YNode | null {
  const depth = flowDepth(text);
  if (depth > LIMITS.maxDepth) {
    bag.report(
      'NF104',
      { start: offset, end: offset + Math.min(text.length, 1) },
      `This YAML nests ${depth} levels deep; at most ${LIMITS.maxDepth} are allowed.`,
      'flatten the structure: no spec needs this depth',
    );
    return null;
  }
  let doc: Document.Parsed;
  try {
    // duplicate keys are found in convert() with a Set: yaml's own check compares every pair of keys
    doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false, strict: true, version: '1.2' });
  } catch (error) {
    // the parser recurses on nesting; a stack overflow here is still only a deep document
    const message = error instanceof RangeError ? 'nests too deeply to parse' : 'could not be parsed';
    bag.report('NF104', { start: offset, end: offset + 1 }, `This YAML ${message}.`, null);
    return null;
  }
  let tooDeep = false;
  for (const error of doc.errors) {
    const code = YAML_CODES[error.code] ?? 'NF101';
    // one document too deep is one problem, however many places the parser gave up at
    if (code === 'NF104' && tooDeep) continue;
    tooDeep ||= code === 'NF104';
    const span = { start: offset + error.pos[0], end: offset + Math.max(error.pos[1], error.pos[0] + 1) };
    const hint =
      code === 'NF105'
        ? 'indent with spaces: YAML does not allow tabs there'
        : code === 'NF102'
          ? 'remove or rename one of the two keys'
          : code === 'NF104'
            ? 'flatten the structure: no spec needs this depth'
            : null;
    const message =
      code === 'NF104' ? 'This YAML nests too deeply to parse.' : `YAML: ${firstLine(error.message)}`;
    bag.report(code, span, message, hint);
  }
  if (doc.errors.length > 0) return null;
  if (doc.contents === null) return null;
  const ctx: Context = { doc, offset, text, bag, aliasBudget: LIMITS.maxAliasNodes };
  try {
    return convert(doc.contents, ctx, 0);
  } catch (error) {
    if (error instanceof UnknownAlias) {
      bag.report(
        'NF101',
        { start: offset + error.at, end: offset + error.at + 1 },
        `YAML: the alias \`*${error.alias}\` refers to no anchor \`&${error.alias}\` before it.`,
        `define the anchor first, as in \`base: &${error.alias} { … }\``,
      );
      return null;
    }
    if (error instanceof AliasBudgetExceeded) {
      bag.report(
        'NF103',
        { start: offset + error.at, end: offset + error.at + 1 },
        `Aliases in this YAML expand to more than ${LIMITS.maxAliasNodes} nodes.`,
        'write the values out, or use fewer nested aliases',
      );
      return null;
    }
    throw error;
  }
}

interface Context {
  readonly doc: Document.Parsed;
  readonly offset: number;
  readonly text: string;
  readonly bag: DiagnosticBag;
  /** Nodes that alias expansion may still produce: bounds an alias bomb to linear work. */
  aliasBudget: number;
}

class AliasBudgetExceeded extends Error {
  constructor(readonly at: number) {
    super('alias budget exceeded');
  }
}

class UnknownAlias extends Error {
  constructor(
    readonly at: number,
    readonly alias: string,
  ) {
    super('unknown alias');
  }
}

function convert(node: unknown, ctx: Context, depth: number): YNode {
  const { offset, bag } = ctx;
  const range = (node as { range?: [number, number, number] | null }).range ?? [0, 0, 0];
  const span: Span = { start: offset + range[0], end: offset + range[1] };
  if (depth > LIMITS.maxDepth) {
    bag.report('NF104', span, `This YAML nests more than ${LIMITS.maxDepth} levels deep.`, null);
    return { kind: 'scalar', span, value: null, raw: '' };
  }
  if (isAlias(node)) {
    const target = node.resolve(ctx.doc);
    if (target === undefined) throw new UnknownAlias(range[0], node.source);
    // every use of an alias is expanded afresh, so the budget counts what expansion really costs
    ctx.aliasBudget -= countNodes(target, ctx.aliasBudget + 1);
    if (ctx.aliasBudget < 0) throw new AliasBudgetExceeded(range[0]);
    return { ...convert(target, ctx, depth), span } as YNode;
  }
  if (isMap(node)) {
    const entries: YEntry[] = [];
    const seen = new Set<string>();
    for (const pair of node.items) {
      const keyNode = pair.key as YamlNode | null;
      const keyRange = (keyNode as { range?: [number, number, number] } | null)?.range ?? range;
      const keySpan = { start: offset + keyRange[0], end: offset + keyRange[1] };
      const key = isScalar(keyNode) ? String(keyNode.value) : null;
      if (key === null) {
        bag.report('NF202', keySpan, 'A key must be plain text, found a list or mapping.', null);
        continue;
      }
      if (seen.has(key)) {
        bag.report(
          'NF102',
          keySpan,
          `YAML: Map keys must be unique; \`${key}\` is already a key of this mapping.`,
          'remove or rename one of the two keys',
        );
        continue;
      }
      seen.add(key);
      const value: YNode =
        pair.value === null || pair.value === undefined
          ? { kind: 'scalar', span: { start: keySpan.end, end: keySpan.end }, value: null, raw: '' }
          : convert(pair.value, ctx, depth + 1);
      entries.push({ key, keySpan, value });
    }
    return { kind: 'map', span, entries, raw: '' };
  }
  if (isSeq(node)) {
    return { kind: 'seq', span, items: node.items.map((item) => convert(item, ctx, depth + 1)), raw: '' };
  }
  if (isScalar(node)) {
    const v = node.value;
    const value =
      v === null || v === undefined
        ? null
        : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
          ? v
          : typeof v === 'bigint'
            ? Number(v)
            : String(v);
    return { kind: 'scalar', span, value, raw: ctx.text.slice(range[0], range[1]) };
  }
  return { kind: 'scalar', span, value: null, raw: '' };
}

function countNodes(node: unknown, cap: number): number {
  let n = 0;
  const stack: unknown[] = [node];
  while (stack.length > 0 && n < cap) {
    const top = stack.pop();
    n += 1;
    if (isMap(top)) for (const p of top.items) stack.push(p.value);
    else if (isSeq(top)) for (const i of top.items) stack.push(i);
  }
  return n;
}

/** The deepest flow-collection nesting (`[[[`, `{{{`) outside quotes, counted without parsing. */
function flowDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== null) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") {
      const prev = text[i - 1];
      if (prev === undefined || ' \t\n[{,:-'.includes(prev)) quote = c;
    } else if (c === '#') {
      const prev = text[i - 1];
      if (prev === undefined || prev === ' ' || prev === '\t' || prev === '\n') {
        const nl = text.indexOf('\n', i);
        i = nl === -1 ? text.length : nl;
      }
    } else if (c === '[' || c === '{') max = Math.max(max, ++depth);
    else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
  return max;
}

function firstLine(message: string): string {
  const line = message.split('\n')[0] ?? message;
  return line.replace(/ at line \d+, column \d+:?$/, '');
}
