/**
 * The list query of a resource: filters (`field[op]=value`), `sort`, `q`, `limit`, `cursor` and
 * `total`, parsed into SQL over the user's readable fields. Anything that cannot be applied is
 * E_INVALID_QUERY, never a 5xx and never silently ignored.
 */
import {
  type StoredField,
  type UserContext,
  encodeValue,
  listCount,
  lookup,
  queryableFields,
} from '@ninefold/engine';
import {
  FIELD_TYPE_INFO,
  FILTER_OPERATORS,
  type Field,
  type FilterOperator,
  LIST_PARAMS,
  type Model,
  type Screen,
  type Value,
  isColor,
  isDate,
  isDateTime,
  isTime,
  normalizeColor,
  normalizeTime,
  parseDecimal,
} from '@ninefold/model';
import { type RawBuilder, sql } from 'kysely';
import { type DialectName } from '../db/dialect.js';
import { unstorable } from '../db/storable-text.js';
import { ApiError } from '../http/errors.js';
import { isRecordId } from '../ids.js';
import { type EntityTable, isSystemField, isTextColumn } from './records.js';
import { listFilter } from './list-refs-filter.js';
import { containsExactly, containsPattern, likeInsensitive, orderedColumn } from './sql.js';

/** Query parameters that are not filters. */
const RESERVED_PARAMS: readonly string[] = Object.values(LIST_PARAMS);

const MAX_IN_ITEMS = 100;
const MAX_SORT_KEYS = 4;

export interface SortKey {
  readonly column: string;
  readonly descending: boolean;
  /** The column may hold NULL: ordered after every value ascending, before them descending. */
  readonly nullable: boolean;
  readonly text: boolean;
  /** For a list of refs: the SQL of how many ids it holds, the key sorted on (decision 0044). */
  readonly count?: string;
}

export interface ListQuery {
  /** Conditions from filters and `q` (the read permission is added by the caller). */
  readonly conditions: RawBuilder<unknown>[];
  /** The sort keys, ending with `id`. */
  readonly sort: readonly SortKey[];
  /** The cursor's keyset condition, when a cursor was given. */
  readonly after: KeysetCondition | null;
  readonly limit: number;
  readonly total: boolean;
  /** The list screen whose fixed condition (`where`) applies too, when `screen=<id>` was given. */
  readonly screen: Screen | null;
  /**
   * `csv`: every matching row as a CSV download instead of a page of JSON, in words (labels, names,
   * formatted money and dates); `csv-raw`: the same with the stored values and the ids.
   */
  readonly format: 'json' | 'csv' | 'csv-raw';
}

function invalid(reason: string): ApiError {
  return new ApiError('E_INVALID_QUERY', { reason });
}

/**
 * Parses a list request's query string.
 *
 * @example parseListQuery(model, info, { 'amount[gt]': '100', sort: '-spentOn' }, user, 'sqlite')
 */
export function parseListQuery(
  model: Model,
  info: EntityTable,
  query: Readonly<Record<string, unknown>>,
  user: UserContext,
  dialect: DialectName,
): ListQuery {
  const readable = queryableFields(model, user, info.entity.name);
  const mayRead = (name: string) => isSystemField(name) || readable === null || readable.has(name);
  const conditions: RawBuilder<unknown>[] = [];

  for (const [key, raw] of Object.entries(query)) {
    if (RESERVED_PARAMS.includes(key)) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[([A-Za-z]+)\])?$/.exec(key);
    const name = match?.[1];
    const field = name === undefined ? undefined : info.stored.get(name);
    if (match === null || name === undefined || field === undefined || !mayRead(name)) {
      throw invalid(`\`${key}\` is not a field you may filter on`);
    }
    const op = (match[2] ?? 'eq') as FilterOperator;
    if (!(FILTER_OPERATORS as readonly string[]).includes(op)) {
      throw invalid(`\`${op}\` is not a filter operator; use one of ${FILTER_OPERATORS.join(', ')}`);
    }
    conditions.push(filterCondition(info, key, name, field, op, single(key, raw), dialect));
  }

  const q = optional(query, LIST_PARAMS.q);
  if (q !== undefined && q !== '') {
    const fields = info.entity.search.filter(mayRead);
    const pattern = containsPattern(q);
    conditions.push(
      fields.length === 0
        ? sql`1=0`
        : sql`(${sql.join(
            fields.map((f) => likeInsensitive(f, pattern)),
            sql` or `,
          )})`,
    );
  }

  const sort = parseSort(info, optional(query, LIST_PARAMS.sort), mayRead, dialect);
  const limitText = optional(query, LIST_PARAMS.limit);
  let limit = model.limits.pageSize;
  if (limitText !== undefined) {
    if (!/^[0-9]{1,9}$/.test(limitText) || Number(limitText) < 1) {
      throw invalid('`limit` must be a whole number of at least 1');
    }
    limit = Math.min(Number(limitText), model.limits.maxPageSize);
  }
  const totalText = optional(query, LIST_PARAMS.total);
  if (totalText !== undefined && totalText !== 'true' && totalText !== 'false') {
    throw invalid('`total` must be true or false');
  }
  const cursor = optional(query, LIST_PARAMS.cursor);
  const after = cursor === undefined ? null : cursorCondition(info, sort, cursor, dialect);
  const screenId = optional(query, LIST_PARAMS.screen);
  let screen: Screen | null = null;
  if (screenId !== undefined) {
    screen =
      model.screens.find((s) => s.id === screenId && s.kind === 'list' && s.entity === info.entity.name) ??
      null;
    if (screen === null) throw invalid(`\`screen\` names no list screen of ${info.entity.name}`);
  }
  const format = optional(query, LIST_PARAMS.format) ?? 'json';
  if (format !== 'json' && format !== 'csv' && format !== 'csv-raw')
    throw invalid('`format` must be json, csv or csv-raw');
  return { conditions, sort, after, limit, total: totalText === 'true', screen, format };
}

function single(key: string, raw: unknown): string {
  if (typeof raw !== 'string') throw invalid(`give \`${key}\` once`);
  const expected = unstorable(raw);
  if (expected !== null) throw invalid(`\`${key}\` must be ${expected}`);
  return raw;
}

function optional(query: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const raw = query[key];
  return raw === undefined ? undefined : single(key, raw);
}

/**
 * A query-string value as the wire value of a field, in the form its column stores (a time with
 * seconds, a colour in lower case), or E_INVALID_QUERY naming the filter: a value its field can
 * never hold (31 February, an enum value the field does not have, text that is no record's id) is
 * refused rather than answered with an empty list.
 */
function wireValue(
  key: string,
  name: string,
  field: StoredField,
  def: Field | undefined,
  text: string,
): Value {
  const refuse = (code: 'E_FORMAT' | 'E_NOT_ONE_OF', expected: string): ApiError =>
    new ApiError(
      'E_INVALID_QUERY',
      { reason: `\`${key}\` must be ${code === 'E_NOT_ONE_OF' ? `one of: ${expected}` : expected}` },
      {
        errors: [
          {
            field: key,
            code,
            params: { field: def?.label ?? name, value: text, expected, values: expected },
          },
        ],
      },
    );
  switch (field.type) {
    case 'string':
    case 'text':
    case 'email':
    case 'url':
    case 'phone':
      return text;
    case 'integer':
      if (!/^-?[0-9]{1,16}$/.test(text) || !Number.isSafeInteger(Number(text))) {
        throw refuse('E_FORMAT', 'a whole number');
      }
      return Number(text);
    case 'decimal':
    case 'money':
      if (parseDecimal(text) === null) throw refuse('E_FORMAT', 'a number like 12.50');
      return text;
    case 'boolean':
      if (text === 'true') return true;
      if (text === 'false') return false;
      throw refuse('E_FORMAT', 'true or false');
    case 'date':
      if (!isDate(text)) throw refuse('E_FORMAT', 'a date like 2026-01-31');
      return text;
    case 'time':
      if (!isTime(text)) throw refuse('E_FORMAT', 'a time like 09:30');
      return normalizeTime(text);
    case 'datetime':
      if (!isDateTime(text)) throw refuse('E_FORMAT', 'an instant like 2026-01-31T09:30:00Z');
      return text;
    case 'enum':
      if (!(def?.values ?? []).includes(text)) throw refuse('E_NOT_ONE_OF', (def?.values ?? []).join(', '));
      return text;
    case 'ref':
      if (!isRecordId(text)) throw refuse('E_FORMAT', `the id of a ${def?.to ?? 'record'}`);
      return text;
    case 'color':
      if (!isColor(text)) throw refuse('E_FORMAT', 'a colour like #1e90ff');
      return normalizeColor(text);
    case 'json':
      throw invalid(`${name} holds json and cannot be filtered`);
    case 'file':
    case 'image':
      throw invalid(`${name} holds files: filter it only by \`[isNull]\``);
  }
}

/** A wire value encoded for its column, or E_INVALID_QUERY. */
function bound(name: string, field: StoredField, value: Value, dialect: DialectName) {
  let encoded: ReturnType<typeof encodeValue>;
  try {
    encoded = encodeValue({ ...field, many: false }, value, dialect);
  } catch {
    throw invalid(`\`${String(value)}\` is not a value of ${name} (${field.type})`);
  }
  // beyond the exact integers no stored value reaches: refused rather than overflowing BIGINT
  if (typeof encoded === 'number' && !Number.isSafeInteger(encoded)) {
    throw invalid(`\`${String(value)}\` is out of range for ${name}`);
  }
  return encoded;
}

function filterCondition(
  info: EntityTable,
  key: string,
  name: string,
  field: StoredField,
  op: FilterOperator,
  text: string,
  dialect: DialectName,
): RawBuilder<unknown> {
  const column = sql.ref(name);
  // a spec's field (a system field has none): its label, an enum's values, a ref's entity
  const def = lookup(info.entity.fields, name);
  const list = info.lists.get(name);
  if (list !== undefined) {
    const ids = (items: readonly string[]) =>
      items.map((item) => String(bound(name, field, wireValue(key, name, field, def, item), dialect)));
    return listFilter(list, info.table, name, op, text, ids, MAX_IN_ITEMS);
  }
  if (op === 'isNull') {
    if (text !== 'true' && text !== 'false') throw invalid(`\`${name}[isNull]\` must be true or false`);
    return text === 'true' ? sql`${column} is null` : sql`${column} is not null`;
  }
  if (field.many) {
    if (op !== 'contains') throw invalid(`${name} is a list: filter it with \`${name}[contains]\``);
    const item = bound(name, field, wireValue(key, name, field, def, text), dialect);
    return containsExactly(name, JSON.stringify(item), dialect);
  }
  const { operators } = FIELD_TYPE_INFO[field.type];
  if (operators.length === 0) throw invalid(`${name} holds ${field.type} and cannot be filtered`);
  if (!operators.includes(op)) {
    if (op === 'contains') throw invalid(`\`contains\` applies to text, not to ${name}`);
    throw invalid(`${name} cannot be filtered with \`${op}\`; use one of ${operators.join(', ')}`);
  }
  if (op === 'contains') return likeInsensitive(name, containsPattern(text));
  const ordered = orderedColumn(name, isTextColumn(info, name), dialect);
  if (op === 'in') {
    const items = text.split(',');
    if (items.length > MAX_IN_ITEMS) throw invalid(`\`${name}[in]\` takes at most ${MAX_IN_ITEMS} values`);
    const values = items.map((item) =>
      sql.val(bound(name, field, wireValue(key, name, field, def, item), dialect)),
    );
    return sql`${column} in (${sql.join(values)})`;
  }
  const value = bound(name, field, wireValue(key, name, field, def, text), dialect);
  switch (op) {
    case 'eq':
      return sql`${column} = ${value}`;
    case 'ne':
      return sql`${column} <> ${value}`;
    case 'lt':
      return sql`${ordered} < ${value}`;
    case 'lte':
      return sql`${ordered} <= ${value}`;
    case 'gt':
      return sql`${ordered} > ${value}`;
    case 'gte':
      return sql`${ordered} >= ${value}`;
  }
}

function parseSort(
  info: EntityTable,
  text: string | undefined,
  mayRead: (name: string) => boolean,
  dialect: DialectName,
): SortKey[] {
  const keys: SortKey[] = [];
  const spec = text === undefined || text === '' ? ['createdAt'] : text.split(',');
  if (spec.length > MAX_SORT_KEYS) throw invalid(`sort by at most ${MAX_SORT_KEYS} fields`);
  for (const part of spec) {
    const descending = part.startsWith('-');
    const name = descending ? part.slice(1) : part;
    const field = info.stored.get(name);
    if (field === undefined || !mayRead(name)) throw invalid(`\`${name}\` is not a field you may sort by`);
    const list = info.lists.get(name);
    if (keys.some((k) => k.column === name)) throw invalid(`\`${name}\` appears twice in sort`);
    if (list !== undefined) {
      // a list of refs sorts by how many ids it holds (decision 0044)
      const holderId = `"${info.table.replace(/"/g, '""')}"."id"`;
      keys.push({
        column: name,
        descending,
        nullable: false,
        text: false,
        count: listCount({ table: list, holderId }),
      });
      continue;
    }
    if (field.many || FIELD_TYPE_INFO[field.type].sort === null) throw invalid(`${name} cannot be sorted`);
    if (name === 'id') {
      // ids are unique: any key after one would never be consulted
      if (part !== spec.at(-1)) throw invalid('`id` can only be the last sort key');
      continue;
    }
    keys.push({
      column: name,
      descending,
      nullable: !isSystemField(name) || name === 'createdBy',
      text: isTextColumn(info, name) && dialect === 'postgres',
    });
  }
  // id breaks ties, in the direction of the last key, so one index serves `createdAt,id` both ways
  const idDescending = spec.at(-1) === '-id' || (spec.at(-1) !== 'id' && (keys.at(-1)?.descending ?? false));
  keys.push({ column: 'id', descending: idDescending, nullable: false, text: dialect === 'postgres' });
  return keys;
}

/** ORDER BY for sort keys. */
export function orderBy(sort: readonly SortKey[]): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  for (const key of sort) {
    const dir = sql.raw(key.descending ? 'desc' : 'asc');
    // NULLs last ascending, first descending; said with NULLS FIRST/LAST (PostgreSQL, SQLite ≥ 3.30)
    // rather than a CASE, so that an index on the column still serves the order
    if (key.nullable)
      parts.push(sql`${column(key)} ${dir} ${sql.raw(key.descending ? 'nulls first' : 'nulls last')}`);
    else parts.push(sql`${column(key)} ${dir}`);
  }
  return sql.join(parts);
}

function column(key: SortKey): RawBuilder<unknown> {
  if (key.count !== undefined) return sql.raw(key.count);
  return key.text ? sql`${sql.ref(key.column)} collate "C"` : sql`${sql.ref(key.column)}`;
}

/** The cursor of the row after which the next page starts: the row's sort values, opaque. */
export function encodeCursor(sort: readonly SortKey[], record: Readonly<Record<string, Value>>): string {
  const payload = {
    s: sortSignature(sort),
    v: sort.map((k) => {
      const value = record[k.column] ?? null;
      if (k.count === undefined) return value;
      return Array.isArray(value) ? value.length : 0;
    }),
  };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/**
 * The sort keys as text, one per order: `-createdAt,-id`.
 *
 * @example sortSignature(parseListQuery(model, info, { sort: '-amount' }, user, 'sqlite').sort) // '-amount,-id'
 */
export function sortSignature(sort: readonly SortKey[]): string {
  return sort.map((k) => `${k.descending ? '-' : ''}${k.column}`).join(',');
}

/**
 * The keyset condition of a cursor (rows after the one it was made from), with what a compiled
 * query of it needs (`CompiledSql`): its shape, which with the sort fixes its SQL text (which of its
 * values are NULL), and its parameters in the order the text binds them.
 */
export interface KeysetCondition {
  readonly condition: RawBuilder<unknown>;
  readonly shape: string;
  readonly parameters: readonly unknown[];
}

/** The keyset condition of a cursor: rows after the one it was made from. */
export function cursorCondition(
  info: EntityTable,
  sort: readonly SortKey[],
  cursor: string,
  dialect: DialectName,
): KeysetCondition {
  const bad = () => invalid('the cursor is not one this list gave out; start again without `cursor`');
  let payload: unknown;
  try {
    if (!/^[A-Za-z0-9_-]{1,4096}$/.test(cursor)) throw bad();
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (typeof payload !== 'object' || payload === null) throw bad();
  const { s, v } = payload as { s?: unknown; v?: unknown };
  if (s !== sortSignature(sort) || !Array.isArray(v) || v.length !== sort.length) throw bad();
  const values = sort.map((key, i) => {
    const value = v[i] as Value;
    // text both databases can bind, like a filter's (a cursor is the client's to forge)
    if (typeof value === 'string' && unstorable(value) !== null) throw bad();
    if (value === null) {
      if (!key.nullable) throw bad();
      return null;
    }
    if (key.count !== undefined) {
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw bad();
      return value;
    }
    const field = info.stored.get(key.column);
    if (field === undefined) throw bad();
    let encoded: ReturnType<typeof encodeValue>;
    try {
      encoded = encodeValue(field, value, dialect);
    } catch {
      throw bad();
    }
    if (typeof encoded === 'number' && !Number.isSafeInteger(encoded)) throw bad();
    return encoded;
  });

  return keysetCondition(sort, values);
}

/** `cursorCondition`'s condition, over the cursor's values (each encoded, or null). */
function keysetCondition(
  sort: readonly SortKey[],
  values: readonly (string | number | boolean | null)[],
): KeysetCondition {
  const shape = values.map((value) => (value === null ? 'n' : 'v')).join('');
  // (k1, k2, …) after (v1, v2, …): some key is past its value and all before it are equal; each
  // part's parameters are kept beside it, in the order its text binds them
  const alternatives: RawBuilder<unknown>[] = [];
  const alternativeParameters: unknown[] = [];
  const equalSoFar: RawBuilder<unknown>[] = [];
  const equalParameters: unknown[] = [];
  sort.forEach((key, i) => {
    const value = values[i] ?? null;
    const col = column(key);
    const past = key.descending ? sql.raw('<') : sql.raw('>');
    let beyond: RawBuilder<unknown> | null;
    let equal: RawBuilder<unknown>;
    if (value === null) {
      // NULLs come last ascending, first descending
      beyond = key.descending ? sql`${sql.ref(key.column)} is not null` : null;
      equal = sql`${sql.ref(key.column)} is null`;
    } else {
      beyond = key.nullable
        ? key.descending
          ? sql`${col} < ${value}`
          : sql`(${col} > ${value} or ${sql.ref(key.column)} is null)`
        : sql`${col} ${past} ${value}`;
      equal = sql`${col} = ${value}`;
    }
    if (beyond !== null) {
      alternatives.push(sql.join([...equalSoFar, beyond], sql` and `));
      alternativeParameters.push(...equalParameters, ...(value === null ? [] : [value]));
    }
    equalSoFar.push(equal);
    if (value !== null) equalParameters.push(value);
  });
  if (alternatives.length === 0) return { condition: sql`1=0`, shape, parameters: [] };
  const after = sql`(${sql.join(
    alternatives.map((a) => sql`(${a})`),
    sql` or `,
  )})`;
  // the same condition, led by a plain range on the first key, so an index seeks instead of scanning
  const first = sort[0];
  const start = values[0];
  if (first === undefined || first.nullable || start === null || start === undefined) {
    return { condition: after, shape, parameters: alternativeParameters };
  }
  const bound = first.descending ? sql.raw('<=') : sql.raw('>=');
  return {
    condition: sql`(${column(first)} ${bound} ${start} and ${after})`,
    shape,
    parameters: [start, ...alternativeParameters],
  };
}
