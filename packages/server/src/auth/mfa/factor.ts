/**
 * A user's second factor in the database (decision 0041): the authenticator app's secret, whether
 * it is on (an enrolment is off until a code from the app confirms it), and the last 30-second step
 * a code was accepted for. A step is taken with a conditional update, so that of two requests with
 * the same code (or two codes of one step) exactly one wins, on SQLite and PostgreSQL alike.
 */
import { type Kysely } from 'kysely';
import { decodeInteger } from '../../db/dialect.js';
import { type Database } from '../../db/open.js';
import { TABLES } from '../../schema/names.js';
import { newTotpSecret, totpStep } from './totp.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/** A user's factor as the table holds it. */
export interface StoredFactor {
  readonly secret: string;
  /** False while enrolled and not yet confirmed. */
  readonly enabled: boolean;
  readonly lastStep: number | null;
}

/**
 * The user's factor, on or only enrolled; null when they have none.
 *
 * @example const factor = await readFactor(database.db, user.id);
 */
export async function readFactor(db: Db, userId: string): Promise<StoredFactor | null> {
  const row = await db
    .selectFrom(TABLES.mfa)
    .select(['secret', 'enabled_at', 'last_step'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (row === undefined) return null;
  return {
    secret: String(row.secret),
    enabled: row.enabled_at !== null,
    lastStep: row.last_step === null ? null : decodeInteger(row.last_step),
  };
}

/**
 * Whether signing in as this user takes a second step: their factor is on. A flow that signs
 * someone in by a link that proves only their mailbox (a password reset) asks this first, and when
 * it holds answers the second step's challenge instead of a session (`startSecondStep` of `challenges.ts`; ASVS 6.4.3).
 *
 * @example if (await mfaRequired(database, user.id)) return reply.code(202).send(await startSecondStep(context, user.id, 'password-reset'));
 */
export async function mfaRequired(database: Database, userId: string): Promise<boolean> {
  return (await readFactor(database.db, userId))?.enabled === true;
}

/**
 * Starts an enrolment: a new secret, off until confirmed; an earlier unconfirmed one is replaced.
 * The caller has checked that the factor is not on.
 *
 * @example const secret = await enrol(database.db, user.id, now());
 */
export async function enrol(db: Db, userId: string, now: Date): Promise<string> {
  const secret = newTotpSecret();
  await db.deleteFrom(TABLES.mfa).where('user_id', '=', userId).where('enabled_at', 'is', null).execute();
  await db
    .insertInto(TABLES.mfa)
    .values({ user_id: userId, secret, created_at: now.toISOString(), enabled_at: null, last_step: null })
    .execute();
  return secret;
}

/**
 * Accepts a code of the user's factor at most once: true when it is right now and its step is past
 * the last one accepted, which it becomes. `enabling` confirms an enrolment with it (and only an
 * enrolment); otherwise only a factor that is on takes codes.
 *
 * @example if (!(await acceptCode(database.db, user.id, factor.secret, '492039', now()))) throw new ApiError('E_MFA_CODE');
 */
export async function acceptCode(
  db: Db,
  userId: string,
  secret: string,
  code: string,
  now: Date,
  enabling = false,
): Promise<boolean> {
  const step = totpStep(secret, code, now);
  if (step === null) return false;
  const changes = enabling ? { last_step: step, enabled_at: now.toISOString() } : { last_step: step };
  const result = await db
    .updateTable(TABLES.mfa)
    .set(changes)
    .where('user_id', '=', userId)
    // the secret the code was checked against is still the user's (not replaced meanwhile)
    .where('secret', '=', secret)
    .where('enabled_at', enabling ? 'is' : 'is not', null)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Removes the user's factor, their recovery codes and any sign-in waiting for a code.
 *
 * @example await removeFactor(tx, user.id);
 */
export async function removeFactor(db: Db, userId: string): Promise<void> {
  await db.deleteFrom(TABLES.mfa).where('user_id', '=', userId).execute();
  await db.deleteFrom(TABLES.recoveryCodes).where('user_id', '=', userId).execute();
  await db.deleteFrom(TABLES.mfaChallenges).where('user_id', '=', userId).execute();
}
