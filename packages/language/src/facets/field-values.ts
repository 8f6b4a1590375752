/**
 * The values a field's notation holds beyond its type: enum values, bounds (a literal or a constant),
 * defaults (a literal of the field's kind or an expression checked later), and YAML literals read
 * as values of a field. What `entities.ts` reads each field's keys with.
 */
import { type Span } from '../diagnostics/diagnostic.js';
import { suggestion } from '../diagnostics/suggest.js';
import {
  type Bound,
  FIELD_TYPE_INFO,
  type BoundFormat,
  type Field,
  type FieldDefault,
  type Value,
  valueLabelsOf,
} from '@ninefold/model';
import { describe, type YEntry, type YNode } from '../source/yaml.js';
import {
  decimalPrecision,
  decimalScale,
  isColor,
  isDate,
  isDateTime,
  isEmail,
  isPhone,
  isTime,
  isUrl,
  normalizeColor,
  normalizeTime,
  toDecimalString,
} from '@ninefold/model';

import { type CompileContext } from './context.js';
import { isFileField } from './field-files.js';
import { capital } from './reader.js';

/** Largest total digits of a decimal: 15 keeps every value exact as a double in expressions. */
export const MAX_PRECISION = 15;

export function readEnumValues(ctx: CompileContext, node: YNode, where: string): string[] | null {
  const items = ctx.reader.list(node, `the values of ${where}`);
  if (items.length === 0) {
    ctx.bag.report(
      'NF207',
      node.span,
      `${capital(where)} lists no values.`,
      'list at least one, for example `values: [low, high]`',
    );
    return null;
  }
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const value =
      item.kind === 'scalar' && (typeof item.value === 'string' || typeof item.value === 'number')
        ? String(item.value)
        : null;
    if (value === null) {
      ctx.reader.wrongType(item, `each value of ${where} must be text`);
      continue;
    }
    if (seen.has(value)) {
      ctx.bag.report(
        'NF210',
        item.span,
        `The value \`${value}\` is listed twice in ${where}.`,
        'remove one of them',
      );
      continue;
    }
    seen.add(value);
    out.push(value);
  }
  return out;
}

/**
 * The labels of an enum's values (`valueLabels: { low: Low, urgent: Urgent! }`), each for a value of
 * `values` (NF328, with the near one); every value the map leaves out is labelled by its name,
 * humanised. Null when `values` could not be read.
 */
export function readValueLabels(
  ctx: CompileContext,
  node: YNode | undefined,
  values: readonly string[] | null,
  where: string,
): Record<string, string> | null {
  if (values === null) return null;
  const labels: Record<string, string> = {};
  const m = node === undefined ? null : ctx.reader.map(node, `the value labels of ${where}`, null);
  for (const [value, e] of m ?? []) {
    if (!values.includes(value)) {
      ctx.bag.report(
        'NF328',
        e.keySpan,
        `\`${value}\` is not one of the values of ${where}, so it has no label to give.`,
        suggestion(value, values, 'value'),
      );
      continue;
    }
    const label = ctx.reader.string(e.value, `the label of value \`${value}\` of ${where}`);
    if (label !== null && label.trim() !== '') labels[value] = label;
  }
  return valueLabelsOf(values, labels);
}

/** A bound: a literal of the field's kind, or the name of a constant holding one. */
export function readBound(
  ctx: CompileContext,
  node: YNode,
  where: string,
  kind: BoundFormat,
  field?: Field,
): Bound | null {
  if (node.kind !== 'scalar') {
    ctx.reader.wrongType(node, `${where} must be a value or a constant's name`);
    return null;
  }
  let constant: string | null = null;
  let raw: string | number | boolean | null = node.value;
  let rawText = node.raw;
  if (typeof raw === 'string' && /^[A-Z][A-Z0-9_]*$/.test(raw)) {
    constant = raw;
    const c = ctx.constants[raw];
    if (c === undefined) {
      ctx.bag.report(
        'NF306',
        node.span,
        `\`${raw}\` is not a declared constant.`,
        suggestion(raw, Object.keys(ctx.constants), 'constant'),
      );
      return null;
    }
    raw = c;
    rawText = String(c);
  }
  const fail = (expected: string) => {
    ctx.bag.report(
      'NF207',
      node.span,
      `${capital(where)} must be ${expected}, found ${describe(node)}.`,
      null,
    );
    return null;
  };
  switch (kind) {
    case 'integer':
      if (typeof raw !== 'number' || !Number.isSafeInteger(raw)) return fail('a whole number');
      return { value: raw, constant };
    case 'decimal': {
      const text = typeof raw === 'number' ? (/^-?\d+(\.\d+)?$/.test(rawText) ? rawText : String(raw)) : null;
      const dec = text === null ? null : toDecimalString(text);
      if (dec === null) return fail('a number');
      if (field?.scale !== null && field?.scale !== undefined && decimalScale(dec) > field.scale) {
        return fail(`a number with at most ${field.scale} decimal places`);
      }
      if (decimalPrecision(dec) > MAX_PRECISION) return fail(`a number of at most ${MAX_PRECISION} digits`);
      return { value: dec, constant };
    }
    case 'date':
      return typeof raw === 'string' && isDate(raw)
        ? { value: raw, constant }
        : fail('a date like 2026-01-31');
    case 'time':
      return typeof raw === 'string' && isTime(raw)
        ? { value: normalizeTime(raw), constant }
        : fail('a time like 09:30');
    case 'datetime':
      return typeof raw === 'string' && isDateTime(raw)
        ? { value: new Date(raw).toISOString(), constant }
        : fail('an instant like 2026-01-31T09:30:00Z');
    default:
      return kind satisfies never;
  }
}

export function checkOrder(
  ctx: CompileContext,
  at: YEntry | undefined,
  lo: Bound | null,
  hi: Bound | null,
  where: string,
  kind: BoundFormat,
) {
  if (lo === null || hi === null || at === undefined) return;
  const less =
    typeof lo.value === 'number' && typeof hi.value === 'number'
      ? lo.value <= hi.value
      : kind === 'integer' || kind === 'decimal'
        ? Number(lo.value) <= Number(hi.value)
        : String(lo.value) <= String(hi.value);
  if (!less) {
    ctx.bag.report(
      'NF207',
      at.value.span,
      `${capital(where)} has a lower bound ${lo.value} above its upper bound ${hi.value}.`,
      'swap the bounds',
    );
  }
}

export type DefaultResult = FieldDefault | { pending: string; span: Span } | null;

/**
 * A default is a literal of the field's type. Where a literal could not be a string (numbers,
 * booleans, refs, calendar values), a string that is not a valid literal is an expression —
 * `default: user.id`, `default: now`. `default: { expr: "…" }` is always an expression.
 */
export function readDefault(ctx: CompileContext, node: YNode, field: Field, where: string): DefaultResult {
  if (isFileField(field)) {
    ctx.bag.report(
      'NF208',
      node.span,
      `${capital(where)} holds files, which have no default.`,
      'leave `default` out: a file is held once the write that attaches its upload is saved',
    );
    return null;
  }
  const isExprForm = node.kind === 'map' && node.entries.length === 1 && node.entries[0]!.key === 'expr';
  if (node.kind === 'map' && (field.type !== 'json' || isExprForm)) {
    const m = ctx.reader.map(node, `the default of ${where}`, ['expr']);
    const e = m?.get('expr');
    if (e === undefined) return null;
    const source = ctx.reader.string(e.value, `the default expression of ${where}`);
    return source === null ? null : { pending: source, span: e.value.span };
  }
  if (field.many) {
    if (node.kind !== 'seq') return badDefault(ctx, node, where, 'a list');
    const values: Value[] = [];
    for (const item of node.items) {
      const v = literal(item, { ...field, many: false });
      if (v === undefined) return badDefault(ctx, item, where, `a list of ${field.type} values`);
      values.push(v);
    }
    return { value: values };
  }
  const v = literal(node, field);
  if (v !== undefined) return { value: v };
  if (
    node.kind === 'scalar' &&
    typeof node.value === 'string' &&
    FIELD_TYPE_INFO[field.type].expressionDefaults
  ) {
    return { pending: node.value, span: node.span };
  }
  return badDefault(ctx, node, where, expectedLiteral(field));
}

export function badDefault(ctx: CompileContext, node: YNode, where: string, expected: string): null {
  ctx.bag.report(
    'NF208',
    node.span,
    `The default of ${where} must be ${expected}, found ${describe(node)}.`,
    null,
  );
  return null;
}

export function expectedLiteral(field: Field): string {
  if (field.type === 'enum') return `one of ${(field.values ?? []).map((v) => `\`${v}\``).join(', ')}`;
  return `a ${field.type} value`;
}

/** The node as a literal value of the field, or undefined when it is not one. */
export function literal(node: YNode, field: Field): Value | undefined {
  if (field.type === 'json') return toPlain(node);
  if (node.kind !== 'scalar') return undefined;
  const v = node.value;
  if (v === null) return null;
  switch (field.type) {
    case 'boolean':
      return typeof v === 'boolean' ? v : undefined;
    case 'integer':
      return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
    case 'decimal':
    case 'money': {
      if (typeof v !== 'number') return undefined;
      const dec = toDecimalString(/^-?\d+(\.\d+)?$/.test(node.raw) ? node.raw : String(v));
      return dec !== null && decimalScale(dec) <= (field.scale ?? 2) ? dec : undefined;
    }
    case 'enum':
      return typeof v === 'string' && (field.values ?? []).includes(v) ? v : undefined;
    case 'date':
      return typeof v === 'string' && isDate(v) ? v : undefined;
    case 'time':
      return typeof v === 'string' && isTime(v) ? normalizeTime(v) : undefined;
    case 'datetime':
      return typeof v === 'string' && isDateTime(v) ? new Date(v).toISOString() : undefined;
    case 'email':
      return typeof v === 'string' && isEmail(v) ? v : undefined;
    case 'url':
      return typeof v === 'string' && isUrl(v) ? v : undefined;
    case 'phone':
      return typeof v === 'string' && isPhone(v) ? v : undefined;
    case 'color':
      return typeof v === 'string' && isColor(v) ? normalizeColor(v) : undefined;
    case 'ref':
    case 'file':
    case 'image':
      return undefined;
    case 'string':
    case 'text':
      return typeof v === 'string' ? v : undefined;
    default:
      return field.type satisfies never;
  }
}

export function toPlain(node: YNode): Value {
  if (node.kind === 'scalar') return node.value;
  if (node.kind === 'seq') return node.items.map(toPlain);
  const out: Record<string, Value> = {};
  for (const e of node.entries) out[e.key] = toPlain(e.value);
  return out;
}
