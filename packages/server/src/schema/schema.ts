/**
 * The database schema as data: what the model asks for, and what the last migration applied.
 * It is plain JSON, stored with every migration, so start-up compares two documents instead of
 * introspecting the database.
 */
import { createHash } from 'node:crypto';
import { type StorageType } from '../db/dialect.js';

export const SCHEMA_VERSION = 1;

export interface Schema {
  readonly schemaVersion: typeof SCHEMA_VERSION;
  /** Tables by name. */
  readonly tables: Readonly<Record<string, Table>>;
}

export interface Table {
  readonly name: string;
  /** The entity stored in it, or null for a table of the server's own. */
  readonly entity: string | null;
  /** Columns in creation order. */
  readonly columns: readonly Column[];
  readonly indexes: readonly Index[];
  /** For the join table of a list of refs (decision 0044): what it joins. Absent for other tables. */
  readonly join?: JoinTable;
  /**
   * PostgreSQL: an UNLOGGED table, written without the WAL (emptied by a crash, not replicated):
   * the limits' counts (decision 0057), whose every request would otherwise wait for a WAL flush.
   * Absent for every other table.
   */
  readonly unlogged?: true;
}

/**
 * What a list of refs' join table joins (decision 0044). Its key is (holder, target); the holder's
 * row going deletes its rows (ON DELETE CASCADE), a listed row cannot go while listed (RESTRICT:
 * the delete path decides first what `onDelete` asks, `resources/list-refs.ts`).
 */
export interface JoinTable {
  /** The entity whose field it is, and its table. */
  readonly entity: string;
  readonly holder: string;
  /** The field whose list it holds. */
  readonly field: string;
  /** The table of the listed entity. */
  readonly target: string;
}

export interface Column {
  readonly name: string;
  readonly storage: StorageType;
  /**
   * What a stored value means, beyond its storage type: the field type, `/scale` for minor units,
   * `:Entity` for a ref, `[]` for a list (`money/2`, `ref:User`, `enum[]`). Two columns with the
   * same storage and different meanings hold incompatible data.
   */
  readonly meaning: string;
  /** The allowed values of an enum column, or null. */
  readonly values: readonly string[] | null;
  readonly primaryKey: boolean;
  /** NOT NULL in the database; only system columns are, requiredness is the engine's business. */
  readonly notNull: boolean;
  /** Whether the field is required: a record without a value is invalid. */
  readonly required: boolean;
  /** The stored value existing rows get when the column is added or becomes required, or null. */
  readonly backfill: string | number | boolean | null;
  /**
   * The foreign key of a single ref (decision 0043): the table whose `id` it holds. Absent for every
   * other column, so that a schema without refs hashes as it did before foreign keys.
   */
  readonly references?: ForeignKey;
}

/**
 * What a column refers to. `no action` leaves every delete to the app (`restrict`, `cascade`,
 * `setNull` with their history and effects); the database refuses whatever would still dangle, at
 * the end of the statement or, deferred, of the transaction. `set null` is the database's own
 * (`createdBy`: deleting a user empties it; the history keeps who).
 */
export interface ForeignKey {
  readonly table: string;
  readonly onDelete: 'no action' | 'set null';
}

export interface Index {
  readonly name: string;
  readonly table: string;
  readonly columns: readonly string[];
  /** The columns that hold text: PostgreSQL indexes them `COLLATE "C"`, the order of every comparison. */
  readonly textColumns: readonly string[];
  readonly unique: boolean;
}

/**
 * A short, stable fingerprint of a schema: equal schemas, equal hashes.
 *
 * @example schemaHash(desiredSchema(model)) // 'f3a9…' (64 hex digits)
 */
export function schemaHash(schema: Schema): string {
  return createHash('sha256').update(canonicalJson(schema)).digest('hex');
}

/** JSON with object keys sorted, so that equal values serialise identically. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
