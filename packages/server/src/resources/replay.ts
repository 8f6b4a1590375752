/**
 * Idempotent replay: a write runs once per `Idempotency-Key` (http/idempotency.ts). A key already
 * taken answers what its first write did; a new one is taken first thing in the write's transaction
 * (`keepOutcome`), so that it commits with the write.
 *
 * Repeats racing each other: the repeat that commits first takes the key. Another that was in
 * flight meanwhile waits for it rather than guess — on the key (its insert waits on the unique
 * index until the first commits or rolls back) or on the record (its version check waits on the
 * first's row lock) — and, if it then fails, looks for the key again before answering: found, the
 * first attempt committed and this request is its repeat, answered with its outcome whatever made
 * this attempt fail (the record's version moved on, the record is gone, the transition no longer
 * leaves its state, the key was taken). Not found, the first attempt rolled back, and this one's own
 * outcome stands. Decision 0014.
 */
import { IDEMPOTENT_REPLAYED_HEADER } from '@ninefold/model';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';
import { type IdempotencyKey, type KeptOutcome, idempotencyKey, keptOutcome } from '../http/idempotency.js';
import { type Caller, activation, mayRead } from './caller.js';
import { etag, present } from './present.js';
import { type RecordReader } from './record-read.js';
import { type EntityResource } from './resource.js';

/** A write's Idempotency-Key was taken by another request while the write ran. */
export class KeyTaken extends Error {
  constructor(override readonly cause: unknown) {
    super('The Idempotency-Key was taken by another request.');
  }
}

/** Runs a write once per key (`once`). */
export type Once = (
  request: FastifyRequest,
  reply: FastifyReply,
  caller: Caller,
  write: (key: IdempotencyKey | null) => Promise<unknown>,
) => Promise<unknown>;

/**
 * The idempotent runner of one entity's writes.
 *
 * @example return once(request, reply, caller, (key) => create(request, reply, caller, key));
 */
export function idempotentWrites(resource: EntityResource, reader: RecordReader): Once {
  const replay = async (reply: FastifyReply, caller: Caller, kept: KeptOutcome): Promise<unknown> => {
    reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    if (kept.status === 204) return reply.code(204).send();
    // the first write's record as it is now, read as any read is
    const record = kept.recordId === null ? null : await reader.byId(kept.recordId);
    const vars = record === null ? null : activation(resource, record, caller);
    if (record === null || vars === null || !mayRead(resource, record, caller, vars)) {
      throw reader.notFound();
    }
    reply.code(kept.status).header('etag', etag(record));
    if (kept.status === 201) reply.header('location', `${resource.path}/${String(record['id'])}`);
    return present(resource, record, caller, vars, true);
  };
  /**
   * The outcome a write answers after failing: its key's, when a repeat took it while it ran;
   * otherwise its own failure is thrown. A failed look-up (the database gone) throws the failure.
   */
  const outcomeAfterFailure = async (key: IdempotencyKey, caller: Caller, error: unknown) => {
    const failure = error instanceof KeyTaken ? error.cause : error;
    let first: KeptOutcome | null;
    try {
      first = await keptOutcome(resource.db, key, caller.now);
    } catch (lookup) {
      throw lookup instanceof ApiError ? lookup : failure;
    }
    if (first === null) throw failure;
    return first;
  };
  return async (request, reply, caller, write) => {
    const key = idempotencyKey(request, caller.user.id);
    if (key === null) return write(null);
    const kept = await keptOutcome(resource.db, key, caller.now);
    if (kept !== null) return replay(reply, caller, kept);
    try {
      return await write(key);
    } catch (error) {
      const first = await outcomeAfterFailure(key, caller, error);
      return replay(reply, caller, first);
    }
  };
}
