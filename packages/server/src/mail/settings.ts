/**
 * How the server sends mail, read from the environment at start: `SMTP_URL` (smtp:// or smtps://,
 * credentials in the URL) sends through that server; without it, mail is kept in the development
 * outbox that admins read. `MAIL_FROM` is the sender's address (the product's name is its name),
 * and `NINEFOLD_PUBLIC_URL` the app's public address, for links to records.
 */

export interface MailSettings {
  /** The SMTP server's URL, or null: keep mail in the outbox. */
  readonly smtpUrl: string | null;
  /** The sender's address. */
  readonly from: string;
  /** The app's public address (`https://help.example.com`), or null: mail carries no links. */
  readonly publicUrl: string | null;
}

export const DEFAULT_MAIL_FROM = 'no-reply@localhost';

/**
 * The mail settings of an environment; throws, naming the variable, when one is malformed.
 *
 * @example mailSettings({ SMTP_URL: 'smtp://mail.example.com:587' }).smtpUrl // 'smtp://mail.example.com:587'
 */
export function mailSettings(env: Readonly<Record<string, string | undefined>>): MailSettings {
  const smtpUrl = nonEmpty(env['SMTP_URL']);
  if (smtpUrl !== null && !/^smtps?:$/.test(protocolOf(smtpUrl)))
    throw new Error('SMTP_URL must be an smtp:// or smtps:// URL.');
  const publicUrl = nonEmpty(env['NINEFOLD_PUBLIC_URL']);
  if (publicUrl !== null && !/^https?:$/.test(protocolOf(publicUrl)))
    throw new Error('NINEFOLD_PUBLIC_URL must be an http:// or https:// URL.');
  return { smtpUrl, from: nonEmpty(env['MAIL_FROM']) ?? DEFAULT_MAIL_FROM, publicUrl };
}

function nonEmpty(value: string | undefined): string | null {
  return value === undefined || value.trim() === '' ? null : value.trim();
}

function protocolOf(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}
