/**
 * Sign-ins waiting for their second step (decision 0041). A right password for a user with the
 * factor on makes a challenge instead of a session: 256 random bits the client sends back with a
 * code, kept only as SHA-256, alive for five minutes and five wrong codes, and used once.
 */
import { MFA_CHALLENGE, type MfaChallengeAnswer, type SessionMethod } from '@ninefold/model';
import { type Kysely } from 'kysely';
import { createHash, randomBytes } from 'node:crypto';
import { decodeInteger } from '../../db/dialect.js';
import { type Database } from '../../db/open.js';
import { TABLES } from '../../schema/names.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/** A challenge as the client holds it: 43 base64url characters. */
const CHALLENGE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A live challenge: whose sign-in it is, and how it began. */
export interface OpenChallenge {
  readonly hash: string;
  readonly userId: string;
  readonly method: SessionMethod;
}

/**
 * Starts a sign-in's second step for a user whose password (or reset link) was right: the 202
 * answer's body. The session begins at `POST <basePath>/session/mfa`, recorded as begun by `method`.
 *
 * @example return reply.code(202).send(await startSecondStep(context, user.id, 'password-reset'));
 */
export async function startSecondStep(
  context: { readonly database: Database; readonly now: () => Date },
  userId: string,
  method: SessionMethod,
): Promise<MfaChallengeAnswer> {
  return { mfa: { challenge: await startChallenge(context.database.db, userId, method, context.now()) } };
}

/**
 * Makes a challenge for a user's sign-in; its text, for the client.
 *
 * @example const challenge = await startChallenge(database.db, user.id, 'password', now());
 */
export async function startChallenge(
  db: Db,
  userId: string,
  method: SessionMethod,
  now: Date,
): Promise<string> {
  const challenge = randomBytes(32).toString('base64url');
  // a user's dead challenges go as a new one comes: the table holds few rows per user
  await db
    .deleteFrom(TABLES.mfaChallenges)
    .where('user_id', '=', userId)
    .where('expires_at', '<=', now.toISOString())
    .execute();
  await db
    .insertInto(TABLES.mfaChallenges)
    .values({
      id_hash: hashChallenge(challenge),
      user_id: userId,
      method,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + MFA_CHALLENGE.minutes * 60_000).toISOString(),
      failures: 0,
    })
    .execute();
  return challenge;
}

/**
 * The challenge of a text, while it lives (not expired, used or spent on wrong codes); null otherwise.
 *
 * @example const open = await openChallenge(database.db, body.challenge, now());
 */
export async function openChallenge(db: Db, challenge: string, now: Date): Promise<OpenChallenge | null> {
  if (!CHALLENGE_SHAPE.test(challenge)) return null;
  const hash = hashChallenge(challenge);
  const row = await db
    .selectFrom(TABLES.mfaChallenges)
    .select(['user_id', 'method', 'expires_at', 'failures'])
    .where('id_hash', '=', hash)
    .executeTakeFirst();
  if (row === undefined) return null;
  if (String(row.expires_at) <= now.toISOString() || decodeInteger(row.failures) >= MFA_CHALLENGE.attempts) {
    await db.deleteFrom(TABLES.mfaChallenges).where('id_hash', '=', hash).execute();
    return null;
  }
  return { hash, userId: String(row.user_id), method: row.method as SessionMethod };
}

/**
 * Counts a wrong code against a challenge; at the last one allowed it is gone.
 *
 * @example await failChallenge(database.db, open);
 */
export async function failChallenge(db: Db, open: OpenChallenge): Promise<void> {
  await db
    .updateTable(TABLES.mfaChallenges)
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('id_hash', '=', open.hash)
    .execute();
  await db
    .deleteFrom(TABLES.mfaChallenges)
    .where('id_hash', '=', open.hash)
    .where('failures', '>=', MFA_CHALLENGE.attempts)
    .execute();
}

/**
 * Uses a challenge up: true for the one request that does (of two at once, one).
 *
 * @example if (!(await finishChallenge(database.db, open))) throw new ApiError('E_MFA_CHALLENGE');
 */
export async function finishChallenge(db: Db, open: OpenChallenge): Promise<boolean> {
  const result = await db
    .deleteFrom(TABLES.mfaChallenges)
    .where('id_hash', '=', open.hash)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

function hashChallenge(challenge: string): string {
  return createHash('sha256').update(challenge).digest('hex');
}
