/**
 * The schema a model asks for: a table per entity with the system columns and a column per field,
 * the indexes lists need, and the server's own tables.
 */
import { columnType, encodeValue, storageEncoding } from '@ninefold/engine';
import { FIELD_TYPE_INFO, type Entity, type Field, type Model, type Value } from '@ninefold/model';
import { type StorageType } from '../db/dialect.js';
import { PASSWORD_HASH_COLUMN, TABLES, indexName, tableName } from './names.js';
import { type Column, type Index, SCHEMA_VERSION, type Schema, type Table } from './schema.js';

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
  for (const table of [...builtinTables(), ...notificationTables()]) add(table, `Table ${table.name}`);
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
    system('createdBy', 'text', 'ref:User', { notNull: false }),
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
  for (const field of Object.values(entity.fields)) columns.push(fieldColumn(field));
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

/** The column of a field. */
export function fieldColumn(field: Field): Column {
  return {
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

function system(
  name: string,
  storage: StorageType,
  meaning: string,
  options: { primaryKey?: boolean; notNull?: boolean } = {},
): Column {
  return {
    name,
    storage,
    meaning,
    values: null,
    primaryKey: options.primaryKey ?? false,
    notNull: options.notNull ?? true,
    required: options.notNull ?? true,
    backfill: null,
  };
}

/** The server's tables of notifications (`notifications/`) and of the mail outbox (`mail/`). */
function notificationTables(): Table[] {
  const index = (table: string, columns: readonly string[], unique: boolean): Index => ({
    name: indexName(table, columns, unique),
    table,
    columns,
    textColumns: columns,
    unique,
  });
  const notifications = TABLES.notifications;
  const settings = TABLES.notificationSettings;
  const outbox = TABLES.mailOutbox;
  return [
    {
      name: notifications,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        system('user_id', 'text', 'ref:User'),
        system('notification', 'text', 'string'),
        system('entity', 'text', 'string'),
        system('record_id', 'text', 'id'),
        system('subject', 'text', 'string'),
        system('message', 'text', 'string'),
        system('created_at', 'text', 'datetime'),
        system('read_at', 'text', 'datetime', { notNull: false }),
        // the job that delivered it: a second run of the job writes nothing twice
        system('job_id', 'text', 'id'),
      ],
      indexes: [
        index(notifications, ['job_id', 'user_id'], true),
        // a user's own, newest first, and their unread ones
        index(notifications, ['user_id', 'created_at', 'id'], false),
      ],
    },
    {
      name: settings,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        system('user_id', 'text', 'ref:User'),
        system('notification', 'text', 'string'),
        system('enabled', 'boolean', 'boolean'),
        system('updated_at', 'text', 'datetime'),
      ],
      indexes: [index(settings, ['user_id', 'notification'], true)],
    },
    {
      name: outbox,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        // the mail job that kept it: a second run keeps it once
        system('job_id', 'text', 'id'),
        system('to_address', 'text', 'email'),
        system('subject', 'text', 'string'),
        system('text', 'text', 'string'),
        system('html', 'text', 'string'),
        system('created_at', 'text', 'datetime'),
      ],
      indexes: [index(outbox, ['job_id'], true), index(outbox, ['created_at', 'id'], false)],
    },
  ];
}

function builtinTables(): Table[] {
  const sessions = TABLES.sessions;
  const history = TABLES.history;
  const idempotency = TABLES.idempotency;
  const jobs = TABLES.jobs;
  const deliveries = TABLES.webhookDeliveries;
  const jobIndex = (columns: readonly string[], unique: boolean, textColumns: readonly string[]): Index => ({
    name: indexName(jobs, columns, unique),
    table: jobs,
    columns,
    textColumns,
    unique,
  });
  return [
    {
      name: sessions,
      entity: null,
      columns: [
        // the SHA-256 of the session id: a leaked table does not leak sessions
        system('id_hash', 'text', 'sha256', { primaryKey: true }),
        system('user_id', 'text', 'ref:User'),
        system('created_at', 'text', 'datetime'),
        system('last_seen_at', 'text', 'datetime'),
      ],
      indexes: [
        {
          name: indexName(sessions, ['user_id'], false),
          table: sessions,
          columns: ['user_id'],
          textColumns: ['user_id'],
          unique: false,
        },
      ],
    },
    {
      name: history,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        system('entity', 'text', 'string'),
        system('record_id', 'text', 'id'),
        system('at', 'text', 'datetime'),
        system('by', 'text', 'ref:User', { notNull: false }),
        system('action', 'text', 'string'),
        system('transition', 'text', 'string', { notNull: false }),
        system('from_state', 'text', 'string', { notNull: false }),
        system('to_state', 'text', 'string', { notNull: false }),
        system('changes', 'text', 'json', { notNull: false }),
      ],
      indexes: [
        {
          name: indexName(history, ['entity', 'record_id', 'at'], false),
          table: history,
          columns: ['entity', 'record_id', 'at'],
          textColumns: ['entity', 'record_id', 'at'],
          unique: false,
        },
      ],
    },
    {
      // the writes each Idempotency-Key was taken for (http/idempotency.ts)
      name: idempotency,
      entity: null,
      columns: [
        // the SHA-256 of the user's id and the key: a key is its user's own
        system('key_hash', 'text', 'sha256', { primaryKey: true }),
        system('fingerprint', 'text', 'sha256'),
        system('status', 'integer', 'integer'),
        system('record_id', 'text', 'id', { notNull: false }),
        system('created_at', 'text', 'datetime'),
      ],
      indexes: [
        {
          name: indexName(idempotency, ['created_at'], false),
          table: idempotency,
          columns: ['created_at'],
          textColumns: ['created_at'],
          unique: false,
        },
      ],
    },
    {
      // the outbox of effects and the runner's queue (jobs/); times it compares are epoch milliseconds
      name: jobs,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        system('kind', 'text', 'string'),
        system('payload', 'text', 'json'),
        system('state', 'text', 'string'),
        system('attempts', 'integer', 'integer'),
        system('max_attempts', 'integer', 'integer'),
        system('run_at', 'integer', 'epoch-ms'),
        system('locked_until', 'integer', 'epoch-ms', { notNull: false }),
        system('lease_owner', 'text', 'string', { notNull: false }),
        system('last_error', 'text', 'string', { notNull: false }),
        // unique per kind while the job is unfinished; cleared when it is done or dead
        system('dedupe_key', 'text', 'string', { notNull: false }),
        system('created_at', 'text', 'datetime'),
        system('updated_at', 'text', 'datetime'),
        // jobs of one sequence run in the order written (NewJob.sequence); null for most
        system('sequence', 'text', 'string', { notNull: false }),
        // the job's own backoff (NewJob.backoff); null for the runner's
        system('backoff_base_ms', 'integer', 'integer', { notNull: false }),
        system('backoff_cap_ms', 'integer', 'integer', { notNull: false }),
      ],
      indexes: [
        // what the runner claims: the due jobs of a state, oldest first
        // (the runner compares `state` under the database's collation: no "C" here)
        jobIndex(['state', 'run_at'], false, []),
        jobIndex(['kind', 'dedupe_key'], true, []),
        // the admin's list, newest first
        jobIndex(['created_at', 'id'], false, ['created_at', 'id']),
        // the claim's look for an earlier unfinished job of a sequence
        jobIndex(['sequence', 'state'], false, []),
      ],
    },
    {
      // the log of webhook deliveries (webhooks/): one row per delivery job, its id the job's
      name: deliveries,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        system('webhook', 'text', 'string'),
        system('event', 'text', 'string'),
        system('entity', 'text', 'string'),
        system('record_id', 'text', 'id'),
        system('state', 'text', 'string'),
        system('attempts', 'integer', 'integer'),
        system('last_status', 'integer', 'integer', { notNull: false }),
        system('last_answer', 'text', 'string', { notNull: false }),
        // the message (the job's payload), kept for a re-send however long jobs are kept
        system('message', 'text', 'json'),
        system('created_at', 'text', 'datetime'),
        system('updated_at', 'text', 'datetime'),
      ],
      indexes: [
        // the admin's list, newest first
        {
          name: indexName(deliveries, ['created_at', 'id'], false),
          table: deliveries,
          columns: ['created_at', 'id'],
          textColumns: ['created_at', 'id'],
          unique: false,
        },
      ],
    },
  ];
}
