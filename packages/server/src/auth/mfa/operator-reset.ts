/**
 * The way back for a person who lost both their authenticator and their recovery codes (ASVS 5.0
 * 6.4.4): an operator, having checked who they are by the organisation's own means (their manager,
 * an identity document — what enrolment relied on), runs `ninefold users reset-mfa <email>`. The
 * factor and its recovery codes go, every session of the person ends, and the trail records it; the
 * person signs in with their password and enrols again (at once, where the spec requires it).
 */
import { type Model } from '@ninefold/model';
import { recordAuthEvent } from '../../audit/auth-events.js';
import { type Database } from '../../db/open.js';
import { ApiError } from '../../http/errors.js';
import { endSessions } from '../end-sessions.js';
import { findUser } from '../users.js';
import { type UserSummary } from '../user-summary.js';
import { readFactor, removeFactor } from './factor.js';

/**
 * Takes a user's second factor away; E_NOT_FOUND for an unknown address, E_MFA_STATE when they have
 * none.
 *
 * @example await resetSecondFactor(database, model, 'ann@example.com');
 */
export async function resetSecondFactor(
  database: Database,
  model: Model,
  email: string,
  now: Date = new Date(),
): Promise<UserSummary> {
  const user = await findUser(database, model, email);
  if (user === null)
    throw new ApiError('E_NOT_FOUND', { entity: 'User' }, { detail: `No user has the email ${email}.` });
  if ((await readFactor(database.db, user.id)) === null)
    throw new ApiError('E_MFA_STATE', { reason: `${user.email} has no second factor` });
  await database.db.transaction().execute(async (tx) => {
    await removeFactor(tx, user.id);
    await recordAuthEvent(tx, {
      kind: 'mfa-disabled',
      at: now,
      userId: user.id,
      email: user.email,
      detail: { by: 'an operator (ninefold users reset-mfa)' },
    });
  });
  await endSessions(database, { userId: user.id });
  return user;
}
