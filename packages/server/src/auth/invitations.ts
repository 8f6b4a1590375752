/**
 * Invitations (decision 0037): a user made without a password (`POST <basePath>/users`,
 * `ninefold users add`) gets a 7-day one-time link to choose one, mailed when SMTP_URL is set and
 * otherwise shown once to whoever made them. Those who may create users list invitations, send one
 * again (the earlier link stops working) and revoke one; the invitee accepts with a password and is
 * signed in. Every step is in the identity audit trail, in the transaction of the step.
 */
import { accessFor, can } from '@ninefold/engine';
import {
  type InvitationAnswer,
  type InvitationState,
  type Model,
  type Value,
  type WireInvitation,
} from '@ninefold/model';
import { type FastifyRequest } from 'fastify';
import { type Kysely } from 'kysely';
import { recordAuthEvent, requestOrigin } from '../audit/auth-events.js';
import { decodeBoolean } from '../db/dialect.js';
import { type Database } from '../db/open.js';
import { ApiError } from '../http/errors.js';
import { type MailSettings, mailSettings } from '../mail/settings.js';
import { columnValues, decodeRow, entityTable, selectColumns } from '../resources/records.js';
import { PASSWORD_HASH_COLUMN, TABLES } from '../schema/names.js';
import { enqueueLinkMail } from './identity-mail.js';
import { type LinkRow, createLink, linkById, linkUrl, publicBase, revokeLinks } from './links.js';
import { requireUserContext } from './request-auth.js';
import { normalizeEmail, usersTable } from './users.js';
import { type Env } from '../webhooks/resolve.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own tables and the spec's users
type Db = Kysely<any>;

/** Who is invited. */
export interface Invitee {
  readonly id: string;
  readonly email: string;
  readonly name: string;
}

/** Where an invitation's link goes: mailed (SMTP_URL set) or shown, and the address it starts with. */
export interface InvitationDelivery {
  readonly settings: MailSettings;
  /** The app's public address (`publicBase`); null only for the command line without one. */
  readonly base: string | null;
}

/** Where a request came from, for the audit trail (`requestOrigin`), or nothing (the command line). */
export interface Origin {
  readonly address?: string | null;
  readonly userAgent?: string | null;
}

/**
 * Invites a user, in the transaction that made them or asks again: revokes their earlier waiting
 * invitation, writes a new link and, when mail is sent, the job that mails it; otherwise the answer
 * carries the link, this once. Records `invitation-created`.
 *
 * @example const answer = await inviteUser(tx, invitee, { settings, base }, { actorId: admin.id, now, origin });
 */
export async function inviteUser(
  tx: Db,
  invitee: Invitee,
  delivery: InvitationDelivery,
  options: { readonly actorId: string | null; readonly now: Date; readonly origin: Origin },
): Promise<InvitationAnswer> {
  const { now } = options;
  const mailed = delivery.settings.smtpUrl !== null;
  await revokeLinks(tx, 'invitation', invitee.id, now);
  const link = await createLink(
    tx,
    { purpose: 'invitation', userId: invitee.id, email: invitee.email, createdBy: options.actorId },
    now,
  );
  if (mailed) {
    if (delivery.base === null) throw new Error('NINEFOLD_PUBLIC_URL is needed to mail an invitation.');
    await enqueueLinkMail(tx, { link: link.id, base: delivery.base }, now);
  }
  await recordAuthEvent(tx, {
    kind: 'invitation-created',
    at: now,
    userId: invitee.id,
    email: invitee.email,
    actorId: options.actorId,
    ...options.origin,
    detail: { delivery: mailed ? 'mailed' : 'shown' },
  });
  return {
    id: link.id,
    user: invitee.id,
    email: invitee.email,
    name: invitee.name,
    state: 'pending',
    createdAt: now.toISOString(),
    expiresAt: link.expiresAt,
    createdBy: options.actorId,
    acceptedAt: null,
    mailed,
    link: mailed ? null : linkUrl(delivery.base ?? '', link.token),
  };
}

/** Who asks to see, send or revoke invitations, and whom they may invite. */
export interface Inviter {
  /** The signed-in user's id. */
  readonly id: string;
  /**
   * Whether they may invite a user: whether they may create that User record, decided on the
   * record when their roles' create permission is a condition (deny by default).
   */
  mayInvite(userId: string | null): Promise<boolean>;
}

/**
 * Refuses anyone who is not signed in (E_UNAUTHENTICATED) or whose roles may create no user
 * (E_FORBIDDEN): who may make an account may invite to it.
 *
 * @example const inviter = requireInviter(context, request); if (!(await inviter.mayInvite(id))) …
 */
export function requireInviter(
  context: { readonly model: Model; readonly database: Database; readonly now: () => Date },
  request: FastifyRequest,
): Inviter {
  const { model, database } = context;
  const user = requireUserContext(request);
  const access = accessFor(model, user, 'create', 'User');
  if (access === false) throw new ApiError('E_FORBIDDEN');
  return {
    id: user.id,
    async mayInvite(userId) {
      if (access === true) return true;
      const record = userId === null ? null : await userRecord(database, model, userId);
      return record !== null && can(model, user, 'create', 'User', record, { now: context.now() });
    },
  };
}

/** A User record as rules read it, or null. */
async function userRecord(
  database: Database,
  model: Model,
  id: string,
): Promise<Record<string, Value> | null> {
  const entity = model.entities['User'];
  if (entity === undefined) return null;
  const info = entityTable(model, entity);
  const row = await database.db
    .selectFrom(info.table)
    .select(selectColumns(info, database.dialect))
    .where('id', '=', id)
    .executeTakeFirst();
  return row === undefined ? null : decodeRow(info, columnValues(info, row));
}

/** The state of an invitation's link at `now`. */
export function invitationState(link: LinkRow, now: Date): InvitationState {
  if (link.usedAt !== null) return 'accepted';
  if (link.revokedAt !== null) return 'revoked';
  return Date.parse(link.expiresAt) <= now.getTime() ? 'expired' : 'pending';
}

/** The most invitations one answer lists. */
export const MAX_INVITATIONS_LISTED = 500;

/**
 * The invitations, newest first, of a state or all.
 *
 * @example await listInvitations(database, model, now, 'pending')
 */
export async function listInvitations(
  database: Database,
  model: Model,
  now: Date,
  state: InvitationState | undefined,
): Promise<WireInvitation[]> {
  let query = database.db
    .selectFrom(`${TABLES.links} as l`)
    .leftJoin(`${usersTable(model)} as u`, 'u.id', 'l.user_id')
    .selectAll('l')
    .select('u.name as user_name')
    .where('l.purpose', '=', 'invitation');
  const at = now.toISOString();
  if (state === 'accepted') query = query.where('l.used_at', 'is not', null);
  if (state === 'revoked') query = query.where('l.used_at', 'is', null).where('l.revoked_at', 'is not', null);
  if (state === 'pending' || state === 'expired') {
    query = query
      .where('l.used_at', 'is', null)
      .where('l.revoked_at', 'is', null)
      .where('l.expires_at', state === 'pending' ? '>' : '<=', at);
  }
  const rows = await query
    .orderBy('l.created_at', 'desc')
    .orderBy('l.id', 'desc')
    .limit(MAX_INVITATIONS_LISTED)
    .execute();
  return rows.map((row) => {
    const link = {
      id: String(row['id']),
      userId: String(row['user_id']),
      email: String(row['email']),
      createdAt: String(row['created_at']),
      expiresAt: String(row['expires_at']),
      usedAt: row['used_at'] === null ? null : String(row['used_at']),
      revokedAt: row['revoked_at'] === null ? null : String(row['revoked_at']),
      createdBy: row['created_by'] === null ? null : String(row['created_by']),
    };
    return {
      id: link.id,
      user: link.userId,
      email: link.email,
      name: row['user_name'] === null || row['user_name'] === undefined ? '' : String(row['user_name']),
      state: invitationState({ ...link, purpose: 'invitation', payload: null }, now),
      createdAt: link.createdAt,
      expiresAt: link.expiresAt,
      createdBy: link.createdBy,
      acceptedAt: link.usedAt,
    };
  });
}

/**
 * The user an invitation may be sent to again: one who exists (E_NOT_FOUND), is not disabled and
 * has no password yet (E_INVITATION_REFUSED: a user with a password resets it instead).
 *
 * @example const invitee = await inviteeAgain(database, model, id);
 */
export async function inviteeAgain(database: Database, model: Model, id: string): Promise<Invitee> {
  const row = await database.db
    .selectFrom(usersTable(model))
    .select(['id', 'email', 'name', 'disabled', PASSWORD_HASH_COLUMN])
    .where('id', '=', id)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError('E_NOT_FOUND', { entity: 'User' });
  if (row[PASSWORD_HASH_COLUMN] !== null && row[PASSWORD_HASH_COLUMN] !== undefined) {
    throw new ApiError('E_INVITATION_REFUSED', {
      action: 'sent',
      reason: 'the user already has a password; they can reset it from the sign-in page',
    });
  }
  if (decodeBoolean(row['disabled'])) {
    throw new ApiError('E_INVITATION_REFUSED', {
      action: 'sent',
      reason: 'the user is disabled; enable them first',
    });
  }
  return { id: String(row['id']), email: String(row['email']), name: String(row['name'] ?? '') };
}

/**
 * Revokes a waiting invitation (E_NOT_FOUND for no invitation of that id; E_INVITATION_REFUSED when
 * it was accepted already). Revoking one revoked or expired changes nothing. Records `invitation-revoked`.
 *
 * @example await revokeInvitation(database, id, { inviter, now, origin });
 */
export async function revokeInvitation(
  database: Database,
  id: string,
  options: { readonly inviter: Inviter; readonly now: Date; readonly origin: Origin },
): Promise<void> {
  const { now, inviter } = options;
  const found = await linkById(database.db, id);
  // an invitation of someone they may not invite is not theirs to see
  if (found === null || found.purpose !== 'invitation' || !(await inviter.mayInvite(found.userId)))
    throw new ApiError('E_NOT_FOUND', { entity: 'Invitation' });
  await database.db.transaction().execute(async (tx) => {
    const link = await linkById(tx, id);
    if (link === null) throw new ApiError('E_NOT_FOUND', { entity: 'Invitation' });
    const state = invitationState(link, now);
    if (state === 'accepted')
      throw new ApiError('E_INVITATION_REFUSED', {
        action: 'revoked',
        reason: 'it was accepted already; disable the user instead',
      });
    if (state !== 'pending') return;
    await tx
      .updateTable(TABLES.links)
      .set({ revoked_at: now.toISOString() })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .execute();
    await recordAuthEvent(tx, {
      kind: 'invitation-revoked',
      at: now,
      userId: link.userId,
      email: link.email,
      actorId: inviter.id,
      ...options.origin,
    });
  });
}

/**
 * The invitation of a user just made by `POST <basePath>/users`, in the transaction that made them
 * (the hook of `resources/writes.ts`): answered under `INVITATION_KEY`.
 *
 * @example const answer = await inviteNewUser(resource, tx, request, record);
 */
export async function inviteNewUser(
  context: { readonly env?: Env; readonly now: () => Date },
  tx: Db,
  request: FastifyRequest,
  record: Readonly<Record<string, unknown>>,
): Promise<InvitationAnswer> {
  const settings = mailSettings(context.env ?? process.env);
  const invitee = {
    id: String(record['id']),
    email: String(record['email']),
    name: String(record['name'] ?? ''),
  };
  return inviteUser(
    tx,
    invitee,
    { settings, base: publicBase(settings, request) },
    { actorId: request.auth.user?.id ?? null, now: context.now(), origin: requestOrigin(request) },
  );
}

/**
 * An invitation from the command line (`ninefold users add` without a password, `ninefold users
 * invite`): mailed when SMTP_URL is set (the server's job runner sends it; NINEFOLD_PUBLIC_URL is
 * then needed), otherwise the answer's link, to print this once — starting with NINEFOLD_PUBLIC_URL,
 * or only its path (`/link#token=…`) when that is unset.
 *
 * @example const answer = await inviteByCommand(database, model, 'zoe@example.com', process.env);
 */
export async function inviteByCommand(
  database: Database,
  model: Model,
  email: string,
  env: Env,
  now: () => Date = () => new Date(),
): Promise<InvitationAnswer> {
  const settings = mailSettings(env);
  if (settings.smtpUrl !== null && settings.publicUrl === null)
    throw new Error('Set NINEFOLD_PUBLIC_URL (the app’s public address): mailed links start with it.');
  const row = await database.db
    .selectFrom(usersTable(model))
    .select('id')
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  if (row === undefined)
    throw new ApiError('E_NOT_FOUND', { entity: 'User' }, { detail: `No user has the email ${email}.` });
  const invitee = await inviteeAgain(database, model, String(row['id']));
  const base = settings.publicUrl?.replace(/\/+$/, '') ?? '';
  return database.db
    .transaction()
    .execute((tx) => inviteUser(tx, invitee, { settings, base }, { actorId: null, now: now(), origin: {} }));
}
