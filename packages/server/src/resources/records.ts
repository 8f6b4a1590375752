/**
 * Records between the database and the wire: which columns an entity's table has, how a row
 * decodes into a record and a record encodes into column values (the engine's storage encoding,
 * decision 0004), and the signed-in user as the engine sees them.
 */
import {
  type StoredField,
  type UserContext,
  type ValueDecoder,
  type WireRecord,
  columnType,
  encodeValue,
  isJoinList,
  systemField,
  valueDecoder,
} from '@ninefold/engine';
import { type Entity, type Model, type SystemField, type Value, SYSTEM_FIELDS } from '@ninefold/model';
import { type AliasedRawBuilder, type Kysely, sql } from 'kysely';
import { rowDecoder } from './row-decoder.js';
import { type DialectName } from '../db/dialect.js';
import { type UserSummary, usersTable } from '../auth/users.js';
import { listTableName, tableName } from '../schema/names.js';
import { listAggregate } from './list-refs-sql.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables come from the spec at run time
export type Db = Kysely<any>;

/** What the resources need to know about an entity's table. */
export interface EntityTable {
  readonly entity: Entity;
  readonly table: string;
  readonly hasState: boolean;
  /** Every column a record is read from: the system columns, then the fields. */
  readonly columns: readonly string[];
  /** How each column is stored. */
  readonly stored: ReadonlyMap<string, StoredField>;
  /** Each column with its decoder, in the order of `columns`: a row is decoded without a lookup. */
  readonly decoders: readonly (readonly [string, ValueDecoder])[];
  /** `decodeRow` of this table, compiled (`rowDecoder`). */
  readonly decode: (row: readonly unknown[], offset: number) => Record<string, Value>;
  /** Each list of refs (decision 0044) with its join table: a record's field, no column of the table. */
  readonly lists: ReadonlyMap<string, string>;
}

/**
 * The table of an entity.
 *
 * @example entityTable(model, model.entities['Claim']!).columns // ['id', 'createdAt', …, 'title', …]
 */
export function entityTable(model: Model, entity: Entity): EntityTable {
  const hasState = model.states[entity.name] !== undefined;
  const stored = new Map<string, StoredField>();
  for (const name of SYSTEM_FIELDS) {
    if (name === 'state' && !hasState) continue;
    stored.set(name, systemField(name));
  }
  for (const field of Object.values(entity.fields)) stored.set(field.name, field);
  const decoders = [...stored].map(([name, field]) => [name, valueDecoder(field)] as const);
  return {
    entity,
    table: tableName(entity.resource),
    hasState,
    columns: [...stored.keys()],
    stored,
    decoders,
    decode: rowDecoder(decoders),
    lists: new Map(
      Object.values(entity.fields)
        .filter(isJoinList)
        .map((f) => [f.name, listTableName(tableName(entity.resource), f.name)]),
    ),
  };
}

/**
 * The SQL that reads a record's column: the column itself, or for a list of refs its ids in order
 * as JSON text (NULL for none) from its join table. `qualifier` names the table or alias of the row.
 *
 * @example columnSql(info, 'members', 'sqlite', 'projects') // '(SELECT NULLIF(json_group_array(…'
 */
export function columnSql(
  info: EntityTable,
  column: string,
  dialect: DialectName,
  qualifier?: string,
): string {
  const quote = (id: string) => `"${id.replace(/"/g, '""')}"`;
  const own = (name: string) =>
    qualifier === undefined ? quote(name) : `${quote(qualifier)}.${quote(name)}`;
  const list = info.lists.get(column);
  return list === undefined ? own(column) : listAggregate(list, own('id'), dialect);
}

/**
 * What a SELECT reads for every column of the table, in the order of `columns`, each under its
 * column's name: for a Kysely `select`.
 *
 * @example db.selectFrom(info.table).select(selectColumns(info, 'sqlite'))
 */
export function selectColumns(
  info: EntityTable,
  dialect: DialectName,
  qualifier: string = info.table,
  alias: (column: string, i: number) => string = (column) => column,
): AliasedRawBuilder<unknown, string>[] {
  return info.columns.map((column, i) =>
    sql.raw(columnSql(info, column, dialect, qualifier)).as(alias(column, i)),
  );
}

/** The columns of the table itself: every column but the lists of refs. */
export function tableColumns(info: EntityTable): string[] {
  return info.columns.filter((c) => !info.lists.has(c));
}

/** Whether a column holds text (compared in code-point order). */
export function isTextColumn(info: EntityTable, column: string): boolean {
  const field = info.stored.get(column);
  return field !== undefined && columnType(field, 'postgres') === 'TEXT';
}

/**
 * A row as the record on the wire, its keys in the order of the table's columns. The row is the
 * table's column values in that order (`Database.selectValues`), from `offset` on: a query that
 * reads more than one table (the session lookup) decodes each table's part of the same row.
 *
 * @example decodeRow(info, await database.selectValues(byId, [id]).then(([row]) => row))
 */
export function decodeRow(info: EntityTable, row: readonly unknown[], offset = 0): Record<string, Value> {
  return info.decode(row, offset);
}

/** A row object's values of the table's columns, in their order, for `decodeRow`. */
export function columnValues(info: EntityTable, row: Readonly<Record<string, unknown>>): unknown[] {
  return info.columns.map((column) => row[column]);
}

/** Column values of the named fields of a (validated) record. */
export function encodeFields(
  info: EntityTable,
  record: WireRecord,
  names: readonly string[],
  dialect: DialectName,
): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const name of names) {
    const field = info.stored.get(name);
    // a list of refs is written to its join table (list-refs.ts)
    if (field !== undefined && !info.lists.has(name)) out[name] = encodeValue(field, record[name], dialect);
  }
  return out;
}

/** The fields (not system columns) whose values differ between two records. */
export function changedFields(info: EntityTable, before: WireRecord, after: WireRecord): string[] {
  const system = new Set<string>(SYSTEM_FIELDS);
  return info.columns.filter(
    (name) => !system.has(name) && canonical(before[name]) !== canonical(after[name]),
  );
}

/** `{ field: { from, to } }` for the history, over the named fields. */
export function changeSet(
  names: readonly string[],
  before: WireRecord | null,
  after: WireRecord | null,
): Record<string, { from: Value; to: Value }> {
  const out: Record<string, { from: Value; to: Value }> = {};
  for (const name of names) out[name] = { from: before?.[name] ?? null, to: after?.[name] ?? null };
  return out;
}

function canonical(value: Value | undefined): string {
  return JSON.stringify(value ?? null);
}

/** A system column's name, narrowed. */
export function isSystemField(name: string): name is SystemField {
  return (SYSTEM_FIELDS as readonly string[]).includes(name);
}

/**
 * A user as the engine sees them: every field of their User record (`user.department` in a
 * permission reads it), their id and their roles. Authentication reads it with the session; a
 * sign-in loads it here.
 */
export async function userContext(
  model: Model,
  db: Db,
  user: UserSummary,
  dialect: DialectName,
): Promise<UserContext> {
  const entity = model.entities['User'];
  const base = { id: user.id, roles: [...user.roles] };
  if (entity === undefined) return base;
  const info = entityTable(model, entity);
  const row = (await db
    .selectFrom(usersTable(model))
    .select(selectColumns(info, dialect, usersTable(model)))
    .where('id', '=', user.id)
    .executeTakeFirst()) as Record<string, unknown> | undefined;
  if (row === undefined) return base;
  return { ...decodeRow(info, columnValues(info, row)), ...base };
}
