/**
 * `Idempotency-Key` (the IETF httpapi draft): a write sent again with the key it was first sent
 * with is done once. A client that lost the answer to a create, a change or a transition (a dropped
 * connection, a timeout, a queue replayed after going offline) sends it again with the same key and
 * gets the first attempt's outcome instead of a second record.
 *
 * The key is taken in the write's own transaction, so it is taken exactly when the write commits: a
 * write that failed took nothing and may be sent again. It is the transaction's first write, so
 * that a repeat sent while the first attempt runs waits on it (`resources/replay.ts`). Keys belong to their user (another user's
 * equal key is another key), are kept for `IDEMPOTENCY_KEY_HOURS`, and are stored hashed.
 */
import { IDEMPOTENCY_KEY_HEADER, IF_MATCH_HEADER } from '@ninefold/model';
import { type FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { type Db } from '../resources/records.js';
import { TABLES } from '../schema/names.js';
import { ApiError } from './errors.js';

/** How long a key is kept: a repeat after that is a new request. */
export const IDEMPOTENCY_KEY_HOURS = 24;

/** Keys up to this long, of visible ASCII (a UUID is 36). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** How often keys past their time are deleted, at most. */
const PRUNE_EVERY_MS = 10 * 60_000;

/** A write's key: whose it is (hashed with its user) and what the write was (its fingerprint). */
export interface IdempotencyKey {
  readonly hash: string;
  readonly fingerprint: string;
}

/** What a key's first write did: its status and the record it wrote. */
export interface KeptOutcome {
  readonly status: number;
  readonly recordId: string | null;
}

/**
 * The request's key, null without one; E_BAD_REQUEST when it is not 1–255 visible ASCII characters.
 * The fingerprint covers the method, the URL, `If-Match` and the body, so that a key sent again
 * with another write is told apart from a repeat.
 *
 * @example const key = idempotencyKey(request, user.id); // null without the header
 */
export function idempotencyKey(request: FastifyRequest, userId: string): IdempotencyKey | null {
  const header = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (header === undefined) return null;
  if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
    throw new ApiError('E_BAD_REQUEST', {
      reason: 'Idempotency-Key must be 1 to 255 visible ASCII characters, like a UUID',
    });
  }
  const ifMatch = request.headers[IF_MATCH_HEADER] ?? '';
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  return {
    hash: sha256(`${userId}\u0000${header}`),
    fingerprint: sha256(`${request.method}\u0000${request.url}\u0000${String(ifMatch)}\u0000${body}`),
  };
}

/**
 * The outcome kept for a key, or null when the key is new (or kept longer ago than
 * `IDEMPOTENCY_KEY_HOURS`). A key first sent with another write is E_IDEMPOTENCY_KEY_REUSED.
 */
export async function keptOutcome(db: Db, key: IdempotencyKey, now: Date): Promise<KeptOutcome | null> {
  const row = (await db
    .selectFrom(TABLES.idempotency)
    .select(['fingerprint', 'status', 'record_id', 'created_at'])
    .where('key_hash', '=', key.hash)
    .executeTakeFirst()) as
    { fingerprint: string; status: unknown; record_id: string | null; created_at: string } | undefined;
  if (row === undefined || expired(row.created_at, now)) return null;
  if (row.fingerprint !== key.fingerprint) throw new ApiError('E_IDEMPOTENCY_KEY_REUSED');
  return { status: Number(row.status), recordId: row.record_id };
}

const lastPrune = new WeakMap<object, number>();

/**
 * Takes a key for a write's outcome; call it first in the write's transaction (`inTransaction`). A
 * key kept past its time is replaced; now and then, the keys past their time are deleted.
 */
export async function keepOutcome(
  tx: Db,
  key: IdempotencyKey,
  outcome: KeptOutcome,
  now: Date,
): Promise<void> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_KEY_HOURS * 3_600_000).toISOString();
  const adapter = tx.getExecutor().adapter;
  const pruned = lastPrune.get(adapter);
  if (pruned === undefined || now.getTime() - pruned >= PRUNE_EVERY_MS) {
    lastPrune.set(adapter, now.getTime());
    await tx.deleteFrom(TABLES.idempotency).where('created_at', '<', cutoff).execute();
  } else {
    await tx
      .deleteFrom(TABLES.idempotency)
      .where('key_hash', '=', key.hash)
      .where('created_at', '<', cutoff)
      .execute();
  }
  await tx
    .insertInto(TABLES.idempotency)
    .values({
      key_hash: key.hash,
      fingerprint: key.fingerprint,
      status: outcome.status,
      record_id: outcome.recordId,
      created_at: now.toISOString(),
    })
    .execute();
}

/** Whether a database error is the refusal of a key another request took first. */
export function isKeyTaken(error: unknown): boolean {
  const { constraint, message } = error as { constraint?: unknown; message?: unknown };
  const text = `${typeof constraint === 'string' ? constraint : ''} ${typeof message === 'string' ? message : ''}`;
  return text.includes(TABLES.idempotency);
}

function expired(createdAt: string, now: Date): boolean {
  return now.getTime() - Date.parse(createdAt) >= IDEMPOTENCY_KEY_HOURS * 3_600_000;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
