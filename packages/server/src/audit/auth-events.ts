/**
 * The identity audit trail (decision 0035): every sign-in and failed one, invitation, sign-up,
 * reset, password change, token and single sign-on, with who, when and from where, for admins to
 * read (`GET <basePath>/admin/auth-events`). Written in the transaction of what it records, where
 * there is one, so that nothing is recorded that did not happen. Never a password, a token or a link.
 */
import { type AuthEventKind } from '@ninefold/model';
import { type FastifyRequest } from 'fastify';
import { type Kysely } from 'kysely';
import { newId } from '../ids.js';
import { TABLES } from '../schema/names.js';

/** One event to record. */
export interface AuthEvent {
  readonly kind: AuthEventKind;
  readonly at: Date;
  /** The user it is about, when known. */
  readonly userId?: string | null;
  /** The address it is about, when known (a failed sign-in's, a sign-up's): lower case. */
  readonly email?: string | null;
  /** Who did it, when not the user themselves: an admin's id. */
  readonly actorId?: string | null;
  /** The client's address and browser (`requestOrigin`). */
  readonly address?: string | null;
  readonly userAgent?: string | null;
  /** Plain facts worth keeping (a token's name, why single sign-on failed); never a secret. */
  readonly detail?: Readonly<Record<string, string>> | null;
}

/** The most of a User-Agent kept. */
const MAX_USER_AGENT = 256;

/**
 * Records an event, in the given transaction or connection.
 *
 * @example await recordAuthEvent(tx, { kind: 'invitation-created', at: now(), userId, actorId, ...requestOrigin(request) });
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function recordAuthEvent(db: Kysely<any>, event: AuthEvent): Promise<void> {
  await db
    .insertInto(TABLES.authEvents)
    .values({
      id: newId(),
      at: event.at.toISOString(),
      kind: event.kind,
      user_id: event.userId ?? null,
      email: event.email ?? null,
      actor_id: event.actorId ?? null,
      address: event.address ?? null,
      user_agent: event.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
      detail: event.detail === undefined || event.detail === null ? null : JSON.stringify(event.detail),
    })
    .execute();
}

/**
 * Where a request came from, as an event records it.
 *
 * @example await recordAuthEvent(db, { kind: 'sign-out', at, userId, ...requestOrigin(request) });
 */
export function requestOrigin(request: FastifyRequest): { address: string; userAgent: string | null } {
  return { address: request.ip, userAgent: request.headers['user-agent'] ?? null };
}
