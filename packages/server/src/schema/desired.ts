/**
 * The schema a model asks for: a table per entity with the system columns and a column per field,
 * the indexes lists need, and the server's own tables (`server-tables.ts`).
 */
import { columnType, encodeValue, storageEncoding } from '@ninefold/engine';
import { FIELD_TYPE_INFO, type Entity, type Field, type Model, type Value } from '@ninefold/model';
import { type StorageType } from '../db/dialect.js';
import { PASSWORD_HASH_COLUMN, indexName, tableName } from './names.js';
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
  for (const field of Object.values(entity.fields)) columns.push(fieldColumn(field, model));
  if (entity.builtin && entity.name === 'User') {
    columns.push(system(PASSWORD_HASH_COLUMN, 'text', 'password-hash', { notNull: false }));
  }

  const indexed = new Set<string>();
  const indexes: Index[] = [];
  const index = (cols: readonly string[], unique = false) => {
    const key = cols.join(',');
    if (indexed.has(key)) return;
    indexed.add(key);
    const textColumns = cols.filter((c) => columns.find((col) => col.name === c)?.storage === 'text');
    indexes.push({ name: indexName(name, cols, unique), table: name, columns: cols, textColumns, unique });
  };
  // keyset paging in creation and modification order
  index(['createdAt', 'id']);
  index(['updatedAt', 'id']);
  // `read: own` lists, newest first: the owner's rows in order, without a sort
  if (entity.owner !== null) index([entity.owner, 'createdAt', 'id']);
  if (machine !== undefined) index(['state']);
  for (const field of Object.values(entity.fields)) {
    if (field.unique && !field.many) index([field.name], true);
  }
  for (const field of Object.values(entity.fields)) {
    if (!field.many && FIELD_TYPE_INFO[field.type].indexed) index([field.name]);
  }
  // what the spec's list screens filter and sort on
  for (const screen of model.screens) {
    if (screen.kind !== 'list' || screen.entity !== entity.name) continue;
    const sortField = screen.sort?.replace(/^-/, '');
    for (const fieldName of [...screen.filters, ...(sortField === undefined ? [] : [sortField])]) {
      const field = entity.fields[fieldName];
      if (field !== undefined && !field.many && FIELD_TYPE_INFO[field.type].sort !== null)
        index([field.name]);
    }
  }
  return { name, entity: entity.name, columns, indexes };
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
