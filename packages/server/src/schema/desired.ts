/**
 * The schema a model asks for: a table per entity with the system columns and a column per field,
 * the indexes its lists need (`list-indexes.ts`), and the server's own tables (`server-tables.ts`).
 */
import { JOIN_COLUMNS, columnType, encodeValue, isJoinList, storageEncoding } from '@ninefold/engine';
import { FIELD_TYPE_INFO, type Entity, type Field, type Model, type Value } from '@ninefold/model';
import { type StorageType } from '../db/dialect.js';
import { LOCALE_COLUMN, PASSWORD_HASH_COLUMN, indexName, listTableName, tableName } from './names.js';
import { type IndexNeed, childListIndexes, listScreenIndexes } from './list-indexes.js';
import { type Column, type Index, SCHEMA_VERSION, type Schema, type Table } from './schema.js';
import { serverTables, system } from './server-tables.js';
import { usersTable } from '../auth/users.js';

/**
 * The schema for a model.
 *
 * @example desiredSchema(model).tables['claims']?.columns.map((c) => c.name) // ['id', 'createdAt', …]
 */
export function desiredSchema(model: Model): Schema {
  const tables: Record<string, Table> = {};
  const add = (table: Table, owner: string) => {
    const taken = tables[table.name];
    if (taken !== undefined) {
      throw new Error(
        `${owner} would be stored in table "${table.name}", which ${taken.entity ?? 'the server'} already uses. Rename its resource.`,
      );
    }
    tables[table.name] = table;
  };
  for (const table of serverTables()) add(table, `Table ${table.name}`);
  for (const entity of Object.values(model.entities))
    add(entityTable(model, entity), `Entity ${entity.name}`);
  // after every entity's table, so that a migration creates the tables a join table refers to first
  for (const entity of Object.values(model.entities)) {
    for (const field of Object.values(entity.fields)) {
      if (isJoinList(field)) add(joinTable(model, entity, field), `${entity.name}.${field.name}`);
    }
  }
  return { schemaVersion: SCHEMA_VERSION, tables };
}

function entityTable(model: Model, entity: Entity): Table {
  const name = tableName(entity.resource);
  const machine = model.states[entity.name];
  const columns: Column[] = [
    system('id', 'text', 'id', { primaryKey: true }),
    system('createdAt', 'text', 'datetime'),
    system('updatedAt', 'text', 'datetime'),
    {
      ...system('createdBy', 'text', 'ref:User', { notNull: false }),
      references: { table: usersTable(model), onDelete: 'set null' },
    },
    system('version', 'integer', 'integer'),
  ];
  if (machine !== undefined) {
    const states = Object.keys(machine.states);
    // nullable so that a machine added later can be backfilled with its initial state
    columns.push({
      ...system('state', 'text', 'enum', { notNull: false }),
      values: states,
      required: true,
      backfill: machine.initial,
    });
  }
  for (const field of Object.values(entity.fields)) {
    if (!isJoinList(field)) columns.push(fieldColumn(field, model));
  }
  if (entity.builtin && entity.name === 'User') {
    columns.push(system(PASSWORD_HASH_COLUMN, 'text', 'password-hash', { notNull: false }));
    columns.push(system(LOCALE_COLUMN, 'text', 'locale', { notNull: false }));
  }

  return { name, entity: entity.name, columns, indexes: entityIndexes(model, entity, name, columns) };
}

/**
 * The indexes of an entity's table: what its unique fields, its lists and its foreign keys need, and
 * nothing else, for every index costs every write (decision 0048). An index that leads another (the
 * same first columns, compared alike) is left out: the longer one serves it.
 */
function entityIndexes(model: Model, entity: Entity, table: string, columns: readonly Column[]): Index[] {
  const isText = (c: string) => columns.find((col) => col.name === c)?.storage === 'text';
  const needs: { columns: string[]; textColumns: string[]; unique: boolean }[] = [];
  const need = ({ equal, ordered }: IndexNeed, unique = false) =>
    needs.push({ columns: [...equal, ...ordered], textColumns: ordered.filter(isText), unique });
  for (const field of Object.values(entity.fields)) {
    // a unique field compares whole, in code-point order, as it always has
    if (field.unique && !field.many)
      needs.push({ columns: [field.name], textColumns: [field.name].filter(isText), unique: true });
  }
  // the API's default order, creation order, in which every list without a sort pages
  need({ equal: [], ordered: ['createdAt', 'id'] });
  for (const n of listScreenIndexes(model, entity)) need(n);
  for (const n of listFilterIndexes(model, entity)) need(n);
  for (const n of childListIndexes(model, entity)) need(n);
  for (const n of foreignKeyIndexes(entity)) need(n);

  const key = (n: { columns: readonly string[]; textColumns: readonly string[] }) =>
    n.columns.map((c) => `${c}${n.textColumns.includes(c) ? '/C' : ''}`);
  const kept = new Map<string, Index>();
  for (const n of needs) {
    const mine = key(n);
    const led = needs.some((other) => {
      const theirs = key(other);
      return (
        !n.unique && other !== n && theirs.length > mine.length && mine.every((part, i) => theirs[i] === part)
      );
    });
    const name = indexName(table, n.columns, n.unique);
    if (led || kept.has(name)) continue;
    kept.set(name, { name, table, columns: n.columns, textColumns: n.textColumns, unique: n.unique });
  }
  return [...kept.values()];
}

/**
 * Single-column indexes for the filters list screens offer: an enum, a state, a ref or a boolean
 * compared with `=`, anything else by a range (`COLLATE "C"` on text).
 */
function listFilterIndexes(model: Model, entity: Entity): IndexNeed[] {
  const needs: IndexNeed[] = [];
  for (const screen of model.screens) {
    if (screen.kind !== 'list' || screen.entity !== entity.name) continue;
    for (const name of screen.filters) {
      const field = entity.fields[name];
      if (name === 'state' && model.states[entity.name] !== undefined)
        needs.push({ equal: [name], ordered: [] });
      if (field === undefined || field.many || FIELD_TYPE_INFO[field.type].sort === null) continue;
      const equal = field.type === 'enum' || field.type === 'ref' || field.type === 'boolean';
      needs.push(equal ? { equal: [name], ordered: [] } : { equal: [], ordered: [name] });
    }
  }
  return needs;
}

/**
 * An index on every single ref column, its foreign key: finding the records that refer to one (a
 * delete's check, a filter `?<ref>=<id>`) reads the index, never the table.
 */
function foreignKeyIndexes(entity: Entity): IndexNeed[] {
  return Object.values(entity.fields)
    .filter((field) => field.type === 'ref' && !field.many)
    .map((field) => ({ equal: [field.name], ordered: [] }));
}

/**
 * The join table of a list of refs (decision 0044): the holder's id, the listed record's id and its
 * place in the list; keyed by (holder, target), and indexed by target for "who lists this record".
 *
 * @example joinTable(model, project, members).name // 'projects__members'
 */
export function joinTable(model: Model, entity: Entity, field: Field): Table {
  const holder = tableName(entity.resource);
  const name = listTableName(holder, field.name);
  const to = model.entities[field.to ?? ''];
  const column = (col: string, storage: StorageType, meaning: string): Column => ({
    ...system(col, storage, meaning),
    primaryKey: false,
  });
  return {
    name,
    entity: null,
    columns: [
      column(JOIN_COLUMNS.holder, 'text', `ref:${entity.name}`),
      column(JOIN_COLUMNS.target, 'text', `ref:${field.to ?? '?'}`),
      column(JOIN_COLUMNS.position, 'integer', 'integer'),
    ],
    indexes: [
      {
        name: indexName(name, [JOIN_COLUMNS.target, JOIN_COLUMNS.holder], false),
        table: name,
        columns: [JOIN_COLUMNS.target, JOIN_COLUMNS.holder],
        textColumns: [JOIN_COLUMNS.target, JOIN_COLUMNS.holder],
        unique: false,
      },
    ],
    join: {
      entity: entity.name,
      holder,
      field: field.name,
      target: tableName(to?.resource ?? field.to ?? ''),
    },
  };
}

/** The column of a field; a single ref's is a foreign key to its entity's table (decision 0043). */
export function fieldColumn(field: Field, model: Model): Column {
  const target =
    field.type === 'ref' && !field.many && field.to !== null ? model.entities[field.to] : undefined;
  return {
    ...(target === undefined
      ? {}
      : { references: { table: tableName(target.resource), onDelete: 'no action' as const } }),
    name: field.name,
    storage: storageOf(field),
    meaning: meaningOf(field),
    values: field.type === 'enum' ? [...(field.values ?? [])] : null,
    primaryKey: false,
    notNull: false,
    required: field.required,
    backfill:
      field.default !== null && 'value' in field.default ? storedLiteral(field, field.default.value) : null,
  };
}

/** The dialect-neutral storage of a field, from the engine's column type (decision 0004). */
function storageOf(field: Field): StorageType {
  switch (columnType(field, 'postgres')) {
    case 'BIGINT':
    case 'INTEGER':
      return 'integer';
    case 'BOOLEAN':
      return 'boolean';
    case 'TEXT':
      return 'text';
  }
}

function meaningOf(field: Field): string {
  const base =
    storageEncoding(field) === 'minor-units'
      ? `${field.type}/${field.scale ?? 2}`
      : field.type === 'ref'
        ? `ref:${field.to ?? '?'}`
        : field.type;
  return field.many ? `${base}[]` : base;
}

/**
 * A literal default as the value stored for it, in the dialect-neutral form of the schema: the
 * engine's encoding with PostgreSQL's booleans (the migration binds them per dialect).
 */
function storedLiteral(field: Field, value: Value): string | number | boolean | null {
  try {
    return encodeValue(field, value, 'postgres');
  } catch {
    return null; // the compiler checked the literal against its field: not reached
  }
}
