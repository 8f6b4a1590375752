/**
 * Ending many sessions at once (decision 0041): a user's other sessions after their second factor
 * changes (ASVS 5.0 7.4.3), one user's or everyone's by an admin (7.4.5). The rows go, with any
 * sign-in waiting for its second step, and the session cache forgets them, so that the next request
 * of an ended session is refused on this instance at once; other instances on a PostgreSQL server
 * hear the deletion at its commit (`schema/session-triggers.ts`, decision 0058).
 */
import { type Database } from '../db/open.js';
import { TABLES } from '../schema/names.js';
import { sessionCacheOf } from './session-cache.js';
import { hashSessionId } from './sessions.js';

/** Whose sessions end, and which one session (the caller's) stays. */
export interface SessionsToEnd {
  /** One user's; absent, everyone's. */
  readonly userId?: string;
  /** The session id (from its cookie) that stays, if any. */
  readonly except?: string | undefined;
}

/**
 * Ends the sessions chosen; how many ended.
 *
 * @example await endSessions(database, { userId: user.id, except: request.cookies[SESSION_COOKIE] }) // 2
 */
export async function endSessions(database: Database, which: SessionsToEnd): Promise<number> {
  const ended = await database.db.transaction().execute(async (tx) => {
    let sessions = tx.deleteFrom(TABLES.sessions);
    let challenges = tx.deleteFrom(TABLES.mfaChallenges);
    if (which.userId !== undefined) {
      sessions = sessions.where('user_id', '=', which.userId);
      challenges = challenges.where('user_id', '=', which.userId);
    }
    if (which.except !== undefined && which.except !== '') {
      sessions = sessions.where('id_hash', '!=', hashSessionId(which.except));
    }
    const result = await sessions.executeTakeFirst();
    await challenges.execute();
    return Number(result.numDeletedRows);
  });
  const cache = sessionCacheOf(database);
  if (which.userId !== undefined) cache.forgetUser(which.userId);
  else cache.forgetAll();
  return ended;
}
