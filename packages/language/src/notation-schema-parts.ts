/**
 * The building blocks of the notation's JSON Schema (`notation-schema.ts` and its parts): strings,
 * flags, bounded integers, names checked by their naming rule, strict objects built from a reader's
 * key list through a table typed `Record<Key, …>`, and the `if`/`then` helpers Ajv's strict mode
 * wants.
 */
import { NAME_RULES } from './facets/reader.js';

/** A JSON Schema (draft 2020-12) as plain data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

export type Key<T extends readonly string[]> = T[number];

export const ref = (name: string): JsonSchema => ({ $ref: `#/$defs/${name}` });
export const text = (description: string, extra: JsonSchema = {}): JsonSchema => ({
  type: 'string',
  description,
  ...extra,
});
export const flag = (description: string): JsonSchema => ({ type: 'boolean', description });
export const int = (description: string, minimum: number, maximum: number): JsonSchema => ({
  type: 'integer',
  description,
  minimum,
  maximum,
});
export const nameOf = (kind: keyof typeof NAME_RULES): JsonSchema => ({
  type: 'string',
  pattern: NAME_RULES[kind].pattern.source,
});
/** One name or a list of names: `roles: manager` means `roles: [manager]`. */
export const names = (description: string, item: JsonSchema = { type: 'string' }): JsonSchema => ({
  description,
  anyOf: [item, { type: 'array', items: item }],
});
/** A top-level key may be left empty (`rules:` with nothing under it), which declares nothing. */
export const orNull = (schema: JsonSchema): JsonSchema => ({
  ...pick(schema, ['title', 'description']),
  anyOf: [{ type: 'null' }, omit(schema, ['title', 'description'])],
});
/** A mapping of names (checked by `pattern`) to definitions. */
export const dictionary = (
  kind: keyof typeof NAME_RULES,
  item: JsonSchema,
  extra: JsonSchema = {},
): JsonSchema => ({
  type: 'object',
  propertyNames: { ...nameOf(kind), ...(extra['propertyNames'] as JsonSchema | undefined) },
  additionalProperties: item,
  ...omit(extra, ['propertyNames']),
});

/**
 * An object whose keys are exactly `keys`, in their order, each with its shape and description:
 * the reader rejects any other key (NF201), so the schema does too.
 */
export function strictObject<const K extends readonly string[]>(
  keys: K,
  shapes: Readonly<Record<Key<K>, JsonSchema>>,
  extra: JsonSchema = {},
): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(keys.map((k: Key<K>) => [k, shapes[k]])),
    additionalProperties: false,
    ...extra,
  };
}

export function pick(schema: JsonSchema, keys: readonly string[]): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([k]) => keys.includes(k)));
}

export function omit(schema: JsonSchema, keys: readonly string[]): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([k]) => !keys.includes(k)));
}

/**
 * `required` inside `if`/`then`/`else`: Ajv's strict mode wants each required key defined beside it,
 * and `true` adds no constraint of its own.
 */
export const need = (...keys: string[]): JsonSchema => ({
  type: 'object',
  properties: Object.fromEntries(keys.map((k) => [k, true])),
  required: keys,
});

export const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
export const expr = (what: string) =>
  text(`${what} A CEL expression over the record's fields, the constants, \`user\`, \`now\` and \`own\`.`);
