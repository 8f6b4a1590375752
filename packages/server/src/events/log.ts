/**
 * The log of record changes (decision 0056): `recordEffects` writes one row of `ninefold_events` per
 * change, in the change's transaction, so an event exists if and only if its change committed; every
 * instance's hub reads the rows it has not seen and sends them to the streams that may read them.
 *
 * Reading "what is new" is where several instances on one PostgreSQL go wrong: transactions commit
 * in another order than they began, so a row with a lower number can become visible after one with a
 * higher. Each row carries its transaction's id (`tx`), and every read also takes the lowest id of a
 * transaction still running (the snapshot's `xmin`): every row below it is final — committed and
 * visible, or never to be. The hub keeps that horizon and the rows it sent at or above it, and reads
 * from the horizon again: no row is skipped, whatever the order of the commits, and no timeout
 * guesses at a gap. On SQLite writes never overlap (one writer at a time): `tx` counts up in commit
 * order, and the horizon is the highest one read, plus one.
 *
 * The write wakes the hubs: this process's at once (`onRecordChange`), and on PostgreSQL every
 * process's at the commit (`NOTIFY ninefold_events`, heard on the hub's LISTEN connection).
 */
import { type RecordChangeKind } from '@ninefold/model';
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { newId } from '../ids.js';
import { type Db } from '../resources/records.js';
import { TABLES } from '../schema/names.js';

/** The PostgreSQL channel a change notifies and every hub listens to. */
export const EVENTS_CHANNEL = 'ninefold_events';

/** What the log takes of a change (`RecordChange`, of `effects/`). */
export interface LoggedChange {
  readonly entity: string;
  readonly kind: RecordChangeKind;
  readonly transition: string | null;
  readonly before: Readonly<Record<string, unknown>> | null;
  readonly after: Readonly<Record<string, unknown>> | null;
  readonly now: Date;
}

/** One row of the log. `lastValues` (a deleted record's values) never leaves the server. */
export interface LoggedEvent {
  readonly id: string;
  readonly tx: number;
  readonly entity: string;
  readonly recordId: string;
  readonly kind: RecordChangeKind;
  readonly transition: string | null;
  readonly version: number;
  readonly at: number;
  readonly lastValues: Record<string, unknown> | null;
}

/** A read of the log: the rows at or above a horizon, and the horizon to read from next. */
export interface LogRead {
  readonly events: readonly LoggedEvent[];
  /** Every row below it is final: committed and read, or never to be. */
  readonly horizon: number;
}

/** The listeners of each database, by its Kysely adapter (one per database, shared by its transactions). */
const listeners = new WeakMap<object, Set<() => void>>();

/** The transactions that have notified already: PostgreSQL folds their notifications into one anyway. */
const notified = new WeakSet<object>();

/**
 * Calls `listener` whenever a change is logged in this process (before its commit: look again a
 * moment later); returns how to stop.
 *
 * @example const stop = onRecordChange(database.db, () => hub.wake());
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database's Kysely
export function onRecordChange(db: Kysely<any>, listener: () => void): () => void {
  const adapter = db.getExecutor().adapter;
  const set = listeners.get(adapter) ?? new Set();
  listeners.set(adapter, set);
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * Logs a change in its transaction, and wakes the hubs: this process's now, every process's at the
 * commit on PostgreSQL.
 *
 * @example await logRecordChange(tx, change); // from recordEffects
 */
export async function logRecordChange(tx: Db, change: LoggedChange): Promise<void> {
  const record = change.after ?? change.before;
  if (record === null) return;
  const adapter = tx.getExecutor().adapter;
  const postgres = adapter instanceof PostgresAdapter;
  // the transaction's id on PostgreSQL; on SQLite, whose writers take turns, one more than the last
  const txValue = postgres
    ? sql<number>`pg_current_xact_id()::text::bigint`
    : sql<number>`(select coalesce(max(tx), 0) + 1 from ${sql.table(TABLES.events)})`;
  await tx
    .insertInto(TABLES.events)
    .values({
      id: newId(),
      tx: txValue,
      entity: change.entity,
      record_id: String(record['id']),
      kind: change.kind,
      transition: change.transition,
      version: Number(record['version'] ?? 0),
      at: change.now.toISOString(),
      // what the read check of a deleted record needs; no stream ever sends it
      last_values: change.after === null ? JSON.stringify(change.before) : null,
    })
    .execute();
  for (const listener of listeners.get(adapter) ?? []) listener();
  if (!postgres) return;
  if (tx.isTransaction) {
    if (notified.has(tx)) return;
    notified.add(tx);
  }
  await sql`select pg_notify(${EVENTS_CHANNEL}, '')`.execute(tx);
}

/**
 * The rows of the log at or above `horizon`, oldest transaction first, and the next horizon.
 *
 * @example const { events, horizon } = await readLog(db, 'postgres', hub.horizon);
 */
export async function readLog(db: Db, dialect: 'sqlite' | 'postgres', horizon: number): Promise<LogRead> {
  const table = sql.table(TABLES.events);
  if (dialect === 'postgres') {
    // one statement, one snapshot: its xmin and the rows it sees agree
    const { rows } = await sql<RawRow & { horizon: string }>`
      select s.horizon, e.* from
        (select pg_snapshot_xmin(pg_current_snapshot())::text::bigint as horizon) s
        left join ${table} e on e.tx >= ${horizon}
      order by e.tx, e.id`.execute(db);
    const next = rows[0] === undefined ? horizon : Number(rows[0].horizon);
    return { events: rows.filter((row) => row.id !== null).map(decode), horizon: Math.max(horizon, next) };
  }
  const { rows } = await sql<RawRow>`select * from ${table} where tx >= ${horizon} order by tx, id`.execute(
    db,
  );
  const events = rows.map(decode);
  const last = events.at(-1);
  return { events, horizon: last === undefined ? horizon : Math.max(horizon, last.tx + 1) };
}

/**
 * The horizon of the present: every row below it is final.
 *
 * @example const start = await logHorizon(db, 'sqlite'); // 1 + the last row's tx
 */
export async function logHorizon(db: Db, dialect: 'sqlite' | 'postgres'): Promise<number> {
  const { rows } =
    dialect === 'postgres'
      ? await sql<{
          horizon: string;
        }>`select pg_snapshot_xmin(pg_current_snapshot())::text::bigint as horizon`.execute(db)
      : await sql<{
          horizon: number;
        }>`select coalesce(max(tx), 0) + 1 as horizon from ${sql.table(TABLES.events)}`.execute(db);
  return Number(rows[0]?.horizon ?? 0);
}

/**
 * Removes the rows written before `before`, but always the last one: on SQLite the next `tx` counts
 * from it.
 *
 * @example await pruneLog(db, new Date(Date.now() - EVENT_REPLAY_MS));
 */
export async function pruneLog(db: Db, before: Date): Promise<void> {
  await db
    .deleteFrom(TABLES.events)
    .where('at', '<', before.toISOString())
    .where('tx', '<', sql<number>`(select max(tx) from ${sql.table(TABLES.events)})`)
    .execute();
}

interface RawRow {
  readonly id: string;
  readonly tx: number | string;
  readonly entity: string;
  readonly record_id: string;
  readonly kind: string;
  readonly transition: string | null;
  readonly version: number | string;
  readonly at: string;
  readonly last_values: string | null;
}

function decode(row: RawRow): LoggedEvent {
  return {
    id: row.id,
    tx: Number(row.tx),
    entity: row.entity,
    recordId: row.record_id,
    kind: row.kind as RecordChangeKind,
    transition: row.transition,
    version: Number(row.version),
    at: Date.parse(row.at),
    lastValues: row.last_values === null ? null : (JSON.parse(row.last_values) as Record<string, unknown>),
  };
}
