import { type DiagnosticBag, type Span } from '../diagnostics/diagnostic.js';
import { suggestion } from '../diagnostics/suggest.js';
import { describe, type YEntry, type YMap, type YNode, type YScalar } from '../source/yaml.js';

/**
 * Reads YAML nodes as the notation expects them, reporting each mismatch with its place and
 * carrying on: every reader returns a usable value (or null) so later checks still run.
 */
export class Reader {
  constructor(readonly bag: DiagnosticBag) {}

  /**
   * The entries of a mapping whose keys must be among `allowed`; unknown keys are reported with the
   * nearest allowed one. `where` names the place for messages ("field `amount`").
   */
  map(node: YNode, where: string, allowed: readonly string[] | null): Map<string, YEntry> | null {
    if (node.kind !== 'map') {
      this.wrongType(node, `${where} must be a mapping`);
      return null;
    }
    const out = new Map<string, YEntry>();
    for (const entry of node.entries) {
      if (allowed !== null && !allowed.includes(entry.key)) {
        this.bag.report(
          'NF201',
          entry.keySpan,
          `\`${entry.key}\` is not a key of ${where}.`,
          suggestion(entry.key, allowed, 'key'),
        );
        continue;
      }
      out.set(entry.key, entry);
    }
    return out;
  }

  /** A mapping used as a dictionary of named items (entities, roles…): its entries in order. */
  dict(node: YNode, where: string): readonly YEntry[] {
    if (node.kind === 'scalar' && node.value === null) return [];
    if (node.kind !== 'map') {
      this.wrongType(node, `${where} must be a mapping of names to definitions`);
      return [];
    }
    return node.entries;
  }

  list(node: YNode, where: string): readonly YNode[] {
    if (node.kind === 'scalar' && node.value === null) return [];
    if (node.kind !== 'seq') {
      this.wrongType(node, `${where} must be a list`);
      return [];
    }
    return node.items;
  }

  /** A list of names, also accepting a single name: `roles: manager` means `[manager]`. */
  names(node: YNode, where: string): { name: string; span: Span }[] {
    const items = node.kind === 'seq' ? node.items : [node];
    const out: { name: string; span: Span }[] = [];
    for (const item of items) {
      const s = this.string(item, `each entry of ${where}`);
      if (s !== null) out.push({ name: s, span: item.span });
    }
    return out;
  }

  string(node: YNode, where: string): string | null {
    if (node.kind === 'scalar' && typeof node.value === 'string') return node.value;
    this.wrongType(node, `${where} must be text`);
    return null;
  }

  boolean(node: YNode, where: string): boolean | null {
    if (node.kind === 'scalar' && typeof node.value === 'boolean') return node.value;
    this.wrongType(node, `${where} must be true or false`);
    return null;
  }

  /** A whole number within [min, max]. */
  integer(node: YNode, where: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | null {
    if (node.kind === 'scalar' && typeof node.value === 'number' && Number.isInteger(node.value)) {
      if (node.value < min || node.value > max) {
        this.bag.report(
          'NF601',
          node.span,
          `${capital(where)} must be between ${min} and ${max}, found ${node.value}.`,
          null,
        );
        return null;
      }
      return node.value;
    }
    this.wrongType(node, `${where} must be a whole number`);
    return null;
  }

  scalar(node: YNode): YScalar | null {
    return node.kind === 'scalar' ? node : null;
  }

  wrongType(node: YNode, expectation: string): void {
    this.bag.report('NF202', node.span, `${capital(expectation)}, found ${describe(node)}.`, null);
  }

  missing(span: Span, key: string, where: string, example: string): void {
    this.bag.report(
      'NF203',
      span,
      `${capital(where)} needs \`${key}\`.`,
      `add it, for example \`${example}\``,
    );
  }
}

export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A mapping node made of entries merged from several blocks. */
export function mapOf(entries: readonly YEntry[], span: Span = { start: 0, end: 0 }): YMap {
  return { kind: 'map', span, entries, raw: '' };
}

export const NAME_RULES = {
  entity: { pattern: /^[A-Z][A-Za-z0-9]*$/, example: 'PascalCase, like `Claim` or `PurchaseOrder`' },
  field: { pattern: /^[a-z][A-Za-z0-9]*$/, example: 'camelCase, like `amount` or `spentOn`' },
  constant: { pattern: /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/, example: 'UPPER_SNAKE, like `MAX_CLAIM`' },
  role: { pattern: /^[a-z][a-zA-Z0-9_-]*$/, example: 'lower-case, like `manager` or `finance`' },
  state: { pattern: /^[a-z][a-zA-Z0-9_]*$/, example: 'lower-case, like `draft` or `inReview`' },
  transition: { pattern: /^[a-z][a-zA-Z0-9_]*$/, example: 'lower-case, like `submit` or `approve`' },
  screen: { pattern: /^[a-z][a-zA-Z0-9_-]*$/, example: 'lower-case, like `claims` or `my-claims`' },
  rule: { pattern: /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/, example: 'kebab-case, like `receipt-over-threshold`' },
  error: { pattern: /^E_[A-Z0-9]+(?:_[A-Z0-9]+)*$/, example: 'E_UPPER_SNAKE, like `E_RECEIPT_REQUIRED`' },
  notification: { pattern: /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/, example: 'kebab-case, like `ticket-answered`' },
  webhook: { pattern: /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/, example: 'kebab-case, like `accounting`' },
} as const;

/** Checks a declared name against the convention of its kind; reports NF204 when it breaks it. */
export function checkName(bag: DiagnosticBag, kind: keyof typeof NAME_RULES, entry: YEntry): boolean {
  const rule = NAME_RULES[kind];
  if (rule.pattern.test(entry.key)) return true;
  bag.report(
    kind === 'error' ? 'NF504' : 'NF204',
    entry.keySpan,
    `The ${kind} name \`${entry.key}\` does not follow the convention for ${kind} names.`,
    `write it in ${rule.example}`,
  );
  return false;
}

/** A simple English plural for default labels and resource names. */
export function pluralize(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

/** `integer` → `an integer`, `string` → `a string`. */
export function article(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}
