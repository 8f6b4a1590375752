/**
 * One-time links (decision 0037): an invitation, a sign-up's e-mail check, a password reset. The
 * secret is 32 random bytes (base64url, 256 bits); the table keeps only its SHA-256, so a copy of
 * the table opens nothing. A link works once: it is used by a conditional update in the transaction
 * of what it does, so that of two requests racing with one link exactly one gets it. The address a
 * person follows is `<public address>/link#token=<secret>`: in the fragment, which no server, log
 * or Referer sees.
 */
import { APP_PATHS, IDENTITY_LIFETIMES, type LinkPurpose, type WireLink } from '@ninefold/model';
import { type FastifyRequest } from 'fastify';
import { type Kysely } from 'kysely';
import { createHash, randomBytes } from 'node:crypto';
import { ApiError } from '../http/errors.js';
import { newId } from '../ids.js';
import { type MailSettings } from '../mail/settings.js';
import { TABLES } from '../schema/names.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own table, outside the spec's schema
type Db = Kysely<any>;

/** How long a link of each purpose lives. */
export const LINK_LIFETIMES_MS: Readonly<Record<LinkPurpose, number>> = {
  invitation: IDENTITY_LIFETIMES.invitationDays * 86_400_000,
  'sign-up': IDENTITY_LIFETIMES.signUpHours * 3_600_000,
  'password-reset': IDENTITY_LIFETIMES.passwordResetMinutes * 60_000,
};

/** The longest token accepted: a link's is 43 characters; anything much longer is not one. */
const MAX_TOKEN_LENGTH = 128;

/** A link as stored. */
export interface LinkRow {
  readonly id: string;
  readonly purpose: LinkPurpose;
  readonly userId: string | null;
  readonly email: string;
  readonly payload: unknown;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly usedAt: string | null;
  readonly revokedAt: string | null;
  readonly createdBy: string | null;
}

/** What a new link is for. */
export interface NewLink {
  readonly purpose: LinkPurpose;
  readonly userId: string | null;
  readonly email: string;
  /** Kept with the link, never shown (a sign-up's name and password hash). */
  readonly payload?: unknown;
  readonly createdBy?: string | null;
}

/**
 * A new secret and the SHA-256 the table keeps of it.
 *
 * @example const { token, hash } = newLinkToken(); // token: 43 base64url characters
 */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}

/**
 * The SHA-256 of a link's secret, as stored. A look-up by it needs no constant-time comparison: the
 * secret is 256 random bits, and what the index compares is a hash the caller cannot steer.
 *
 * @example hashLinkToken('q3V…') // 64 hex digits
 */
export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Writes a link in a transaction and returns its id, expiry and secret (to show or to mail).
 *
 * @example const link = await createLink(tx, { purpose: 'invitation', userId, email }, now);
 */
export async function createLink(
  db: Db,
  link: NewLink,
  now: Date,
): Promise<{ id: string; token: string; expiresAt: string }> {
  const { token, hash } = newLinkToken();
  const id = newId();
  const expiresAt = new Date(now.getTime() + LINK_LIFETIMES_MS[link.purpose]).toISOString();
  await db
    .insertInto(TABLES.links)
    .values({
      id,
      token_hash: hash,
      purpose: link.purpose,
      user_id: link.userId,
      email: link.email,
      payload: link.payload === undefined ? null : JSON.stringify(link.payload),
      created_at: now.toISOString(),
      expires_at: expiresAt,
      used_at: null,
      revoked_at: null,
      created_by: link.createdBy ?? null,
    })
    .execute();
  return { id, token, expiresAt };
}

/**
 * Gives a waiting link a new secret and returns it, or null when the link no longer waits (used,
 * revoked): the mail job mints the secret it sends, so that no secret waits in the job queue.
 *
 * @example const token = await renewLinkToken(db, linkId);
 */
export async function renewLinkToken(db: Db, id: string): Promise<string | null> {
  const { token, hash } = newLinkToken();
  const result = await db
    .updateTable(TABLES.links)
    .set({ token_hash: hash })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? token : null;
}

/**
 * A link by id, or null.
 *
 * @example await linkById(db, id)
 */
export async function linkById(db: Db, id: string): Promise<LinkRow | null> {
  const row = await db.selectFrom(TABLES.links).selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? null : toLinkRow(row);
}

/**
 * The link a secret names if it still works; otherwise E_LINK_INVALID (no such link, or one for
 * another purpose), E_LINK_EXPIRED (past its time, or revoked) or E_LINK_USED.
 *
 * @example const link = await inspectLink(db, token, now);
 */
export async function inspectLink(
  db: Db,
  token: unknown,
  now: Date,
  purpose?: LinkPurpose,
): Promise<LinkRow> {
  if (typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_LENGTH)
    throw new ApiError('E_LINK_INVALID');
  const row = await db
    .selectFrom(TABLES.links)
    .selectAll()
    .where('token_hash', '=', hashLinkToken(token))
    .executeTakeFirst();
  if (row === undefined) throw new ApiError('E_LINK_INVALID');
  const link = toLinkRow(row);
  if (purpose !== undefined && link.purpose !== purpose) throw new ApiError('E_LINK_INVALID');
  if (link.usedAt !== null) throw new ApiError('E_LINK_USED');
  if (link.revokedAt !== null || Date.parse(link.expiresAt) <= now.getTime())
    throw new ApiError('E_LINK_EXPIRED');
  return link;
}

/**
 * Uses a link, in the transaction of what it does: a conditional update that only one transaction
 * can make (the other waits on the row, then finds it used), so a second use, even a concurrent
 * one, fails with E_LINK_USED. Throws as `inspectLink` does for a link that does not work.
 *
 * @example await db.transaction().execute(async (tx) => { const link = await useLink(tx, token, 'invitation', now); … });
 */
export async function useLink(db: Db, token: unknown, purpose: LinkPurpose, now: Date): Promise<LinkRow> {
  const link = await inspectLink(db, token, now, purpose);
  const result = await db
    .updateTable(TABLES.links)
    .set({ used_at: now.toISOString() })
    .where('id', '=', link.id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new ApiError('E_LINK_USED');
  return { ...link, usedAt: now.toISOString() };
}

/**
 * Revokes a user's waiting links of a purpose (a new invitation or reset replaces the earlier
 * one); returns how many.
 *
 * @example await revokeLinks(tx, 'password-reset', userId, now);
 */
export async function revokeLinks(db: Db, purpose: LinkPurpose, userId: string, now: Date): Promise<number> {
  const result = await db
    .updateTable(TABLES.links)
    .set({ revoked_at: now.toISOString() })
    .where('purpose', '=', purpose)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * A link as `POST <basePath>/links/inspect` answers it.
 *
 * @example wireLink(link) // { purpose: 'invitation', email: 'ann@example.com', expiresAt: '…' }
 */
export function wireLink(link: LinkRow): WireLink {
  return { purpose: link.purpose, email: link.email, expiresAt: link.expiresAt };
}

/**
 * The address a person follows: the secret in the fragment of the app's link page.
 *
 * @example linkUrl('https://help.example.com', token) // 'https://help.example.com/link#token=…'
 */
export function linkUrl(base: string, token: string): string {
  return `${base.replace(/\/+$/, '')}${APP_PATHS.link}#token=${token}`;
}

/**
 * The public address that links start with: `NINEFOLD_PUBLIC_URL`; without it, and only while no
 * SMTP_URL is set (development: mail stays in the outbox, a link is shown to the admin), the
 * request's own origin. A mailed link is never built from a Host header that anyone can send: with
 * SMTP_URL and no public address (which `ninefold start` refuses), E_INTERNAL.
 *
 * @example const base = publicBase(settings, request); // 'https://help.example.com'
 */
export function publicBase(settings: MailSettings, request: FastifyRequest): string {
  if (settings.publicUrl !== null) return settings.publicUrl.replace(/\/+$/, '');
  if (settings.smtpUrl !== null)
    throw new ApiError('E_INTERNAL', {}, { detail: 'SMTP_URL is set without NINEFOLD_PUBLIC_URL.' });
  return `${request.protocol}://${request.host}`;
}

function toLinkRow(row: Record<string, unknown>): LinkRow {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  const payload = text(row['payload']);
  return {
    id: String(row['id']),
    purpose: String(row['purpose']) as LinkPurpose,
    userId: text(row['user_id']),
    email: String(row['email']),
    payload: payload === null ? null : (JSON.parse(payload) as unknown),
    createdAt: String(row['created_at']),
    expiresAt: String(row['expires_at']),
    usedAt: text(row['used_at']),
    revokedAt: text(row['revoked_at']),
    createdBy: text(row['created_by']),
  };
}
