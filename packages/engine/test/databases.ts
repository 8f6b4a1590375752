/**
 * Real databases for the SQL tests: SQLite in memory, and PostgreSQL — the server at
 * TEST_DATABASE_URL when set, PGlite in-process otherwise — each in a table of its own.
 */
import { PGlite } from '@electric-sql/pglite';
import Database from 'better-sqlite3';
import pg from 'pg';
import { type Entity, type Value, SYSTEM_FIELDS } from '@ninefold/model';
import { type Dialect, columnType, encodeValue, numberedPlaceholders, systemField } from '../src/index.js';

export interface TestDb {
  readonly dialect: Dialect;
  /** Replaces the table's rows. */
  reset(rows: readonly Record<string, Value | undefined>[]): Promise<void>;
  /** The ids of the rows matching a WHERE condition with `?` placeholders, sorted. */
  ids(where: string, params: readonly unknown[]): Promise<string[]>;
  close(): Promise<void>;
}

function columns(entity: Entity, dialect: Dialect) {
  const out: { name: string; field: Parameters<typeof encodeValue>[0] }[] = [];
  for (const name of SYSTEM_FIELDS) out.push({ name, field: systemField(name) });
  for (const f of Object.values(entity.fields)) out.push({ name: f.name, field: f });
  return out.map((c) => ({ ...c, type: columnType(c.field, dialect) }));
}

let pglite: Promise<PGlite> | undefined;

export async function openDb(dialect: Dialect, entity: Entity): Promise<TestDb> {
  const cols = columns(entity, dialect);
  const ddl = (table: string) =>
    `CREATE TABLE ${table} (${cols.map((c) => `"${c.name}" ${c.type}${c.name === 'id' ? ' PRIMARY KEY' : ''}`).join(', ')})`;
  const insert = (table: string, rows: readonly Record<string, Value | undefined>[]) => {
    const params: unknown[] = [];
    const tuples = rows.map((row) => {
      for (const c of cols) params.push(encodeValue(c.field, row[c.name], dialect));
      return `(${cols.map(() => '?').join(', ')})`;
    });
    return {
      sql: `INSERT INTO ${table} (${cols.map((c) => `"${c.name}"`).join(', ')}) VALUES ${tuples.join(', ')}`,
      params,
    };
  };

  if (dialect === 'sqlite') {
    const db = new Database(':memory:');
    db.exec(ddl('rows'));
    return {
      dialect,
      async reset(rows) {
        db.exec('DELETE FROM rows');
        if (rows.length === 0) return;
        const { sql, params } = insert('rows', rows);
        db.prepare(sql).run(...params);
      },
      async ids(where, params) {
        const result = db.prepare(`SELECT id FROM rows WHERE ${where} ORDER BY id`).all(...params) as {
          id: string;
        }[];
        return result.map((r) => r.id).sort();
      },
      async close() {
        db.close();
      },
    };
  }

  const schema = `nf_engine_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const url = process.env['TEST_DATABASE_URL'];
  let query: (sql: string, params?: readonly unknown[]) => Promise<{ rows: unknown[] }>;
  let end: () => Promise<void>;
  if (url !== undefined && url !== '') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    query = (sql, params = []) => client.query(sql, params as unknown[]);
    end = () => client.end();
  } else {
    // one PGlite for the file's tables, each in a schema of its own: a start costs seconds
    const db = await (pglite ??= PGlite.create());
    query = (sql, params = []) => db.query(sql, params as unknown[]);
    end = async () => undefined;
  }
  await query(`CREATE SCHEMA ${schema}`);
  const table = `${schema}.rows`;
  await query(ddl(table));
  return {
    dialect,
    async reset(rows) {
      await query(`DELETE FROM ${table}`);
      if (rows.length === 0) return;
      const { sql, params } = insert(table, rows);
      await query(numberedPlaceholders(sql), params);
    },
    async ids(where, params) {
      const result = await query(
        `SELECT id FROM ${table} WHERE ${numberedPlaceholders(where)} ORDER BY id`,
        params,
      );
      return (result.rows as { id: string }[]).map((r) => r.id).sort();
    },
    async close() {
      try {
        await query(`DROP SCHEMA ${schema} CASCADE`);
      } finally {
        await end();
      }
    },
  };
}
