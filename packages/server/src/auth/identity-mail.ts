/**
 * Identity's mail (decision 0037): an invitation, a sign-up's e-mail check, a password reset, and
 * the note to an address's owner that someone tried to sign up with it. Each names the product,
 * says what the link does and how long it works, and "if this was not you, ignore this mail"; the
 * HTML part is the same text, escaped (`composeMail`).
 *
 * A mail that carries a link goes through a job of its own, `ninefold.link-mail`, whose payload
 * names the link, not its secret: the job gives the link a new secret when it sends it, so that no
 * secret waits in the job queue (whose payloads admins read) — only its SHA-256 is ever stored. A
 * job run again after a lost answer mails a newer secret, and the earlier one stops working.
 */
import { APP_PATHS, IDENTITY_LIFETIMES, type LinkPurpose, type Model } from '@ninefold/model';
import { type Kysely } from 'kysely';
import { type Database } from '../db/open.js';
import { enqueueJob } from '../jobs/enqueue.js';
import { type JobHandler } from '../jobs/job.js';
import { type MailContent, composeMail } from '../mail/compose.js';
import { MAIL_JOB, mailHandler } from '../mail/send.js';
import { type MailSettings } from '../mail/settings.js';
import { linkById, linkUrl, renewLinkToken } from './links.js';

/** The job kind of a mail that carries a one-time link. */
export const LINK_MAIL_JOB = 'ninefold.link-mail';

/** What a link mail's job carries: the link's id and the address its URL starts with; no secret. */
export interface LinkMailPayload {
  readonly link: string;
  readonly base: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own tables
type Db = Kysely<any>;

/**
 * Writes the job that mails a link, in the transaction that made the link.
 *
 * @example await enqueueLinkMail(tx, { link: link.id, base }, now);
 */
export async function enqueueLinkMail(db: Db, payload: LinkMailPayload, now: Date): Promise<void> {
  await enqueueJob(db, { kind: LINK_MAIL_JOB, payload, key: `link:${payload.link}` }, now);
}

/**
 * Writes the job of a mail that carries no secret (the note to an address's owner).
 *
 * @example await enqueueMail(tx, signUpTakenMail(model, email, base), now);
 */
export async function enqueueMail(db: Db, mail: MailContent, now: Date): Promise<void> {
  await enqueueJob(db, { kind: MAIL_JOB, payload: mail }, now);
}

/**
 * The handler of `ninefold.link-mail`: a link still waiting gets a new secret, mailed (or kept in the
 * development outbox) as the mail job does; a link used or revoked meanwhile is not mailed.
 *
 * @example const handlers = { [LINK_MAIL_JOB]: linkMailHandler({ model, database, settings, now }) };
 */
export function linkMailHandler(context: {
  readonly model: Model;
  readonly database: Database;
  readonly settings: MailSettings;
  readonly now: () => Date;
}): JobHandler {
  const { model, database } = context;
  const send = mailHandler(context);
  return async (job, signal) => {
    const payload = job.payload as LinkMailPayload;
    const link = await linkById(database.db, payload.link);
    if (link === null || Date.parse(link.expiresAt) <= context.now().getTime()) return;
    const token = await renewLinkToken(database.db, link.id);
    if (token === null) return;
    const mail = linkMail(model, link.purpose, link.email, linkUrl(payload.base, token));
    await send({ ...job, payload: mail }, signal);
  };
}

const IGNORE = 'If this was not you, ignore this mail: nothing changes until the link is followed.';

/**
 * The mail of a link of a purpose to an address.
 *
 * @example linkMail(model, 'password-reset', 'ann@example.com', url).subject // 'Reset your Help Desk password'
 */
export function linkMail(model: Model, purpose: LinkPurpose, to: string, url: string): MailContent {
  const product = model.product.name;
  switch (purpose) {
    case 'invitation':
      return composeMail({
        to,
        subject: `You are invited to ${product}`,
        message: `You have an account at ${product}. Follow the link below to choose your password and sign in.\n\nThe link works once, for ${IDENTITY_LIFETIMES.invitationDays} days.\n\n${IGNORE}`,
        link: url,
      });
    case 'sign-up':
      return composeMail({
        to,
        subject: `Confirm your e-mail address for ${product}`,
        message: `Someone, probably you, signed up to ${product} with this address. Follow the link below to confirm it and open your account.\n\nThe link works once, for ${IDENTITY_LIFETIMES.signUpHours} hours.\n\n${IGNORE}`,
        link: url,
      });
    case 'password-reset':
      return composeMail({
        to,
        subject: `Reset your ${product} password`,
        message: `Someone, probably you, asked to reset the password of your ${product} account. Follow the link below to choose a new one; you will be signed out everywhere else.\n\nThe link works once, for ${IDENTITY_LIFETIMES.passwordResetMinutes} minutes.\n\nIf this was not you, ignore this mail: your password stays as it is.`,
        link: url,
      });
  }
}

/**
 * The note to the owner of an address someone tried to sign up with: no link to an account, only
 * where to sign in or reset the password.
 *
 * @example signUpTakenMail(model, 'ann@example.com', 'https://help.example.com').subject
 */
export function signUpTakenMail(model: Model, to: string, base: string): MailContent {
  const product = model.product.name;
  const root = base.replace(/\/+$/, '');
  return composeMail({
    to,
    subject: `Someone tried to sign up to ${product} with your address`,
    message: `Someone tried to sign up to ${product} with this address, which already has an account. If it was you, sign in, or reset your password if you have forgotten it: ${root}${APP_PATHS.forgotPassword}\n\nIf this was not you, ignore this mail: your account is unchanged.`,
    link: `${root}${APP_PATHS.signIn}`,
  });
}

/**
 * The note to a user's old address after their e-mail changed: what changed, and whom to ask if it
 * was not them. No link and no secret: the old address no longer opens the account (decision 0042).
 *
 * @example emailChangedMail(model, 'ann@example.com', 'ann@example.org').to // 'ann@example.com'
 */
export function emailChangedMail(model: Model, to: string, newEmail: string): MailContent {
  const product = model.product.name;
  return composeMail({
    to,
    subject: `Your ${product} e-mail address was changed`,
    message: `The e-mail address of your ${product} account was changed from ${to} to ${newEmail}. Sign-in, password resets and notices now go to the new address.\n\nIf this was not you, tell an administrator of ${product} at once: they can end every session of the account and set the address back.`,
    link: null,
  });
}
