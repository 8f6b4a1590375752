/**
 * A notification as an e-mail: its rendered subject, the message as the text part, and an HTML
 * part made from the same message — escaped, never taken as markup, since it holds the record's
 * values — with a link to the record's page in the app when the server knows its public address.
 */
import { type Model } from '@ninefold/model';

/** A mail ready to send or to keep in the outbox. */
export interface MailContent {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * The mail of a rendered notification to one address.
 *
 * @example composeMail({ to: 'ann@example.com', subject: 'Answered', message: 'Ann answered', link: null })
 */
export function composeMail(mail: {
  readonly to: string;
  readonly subject: string;
  readonly message: string;
  readonly link: string | null;
}): MailContent {
  const text = mail.link === null ? mail.message : `${mail.message}\n\n${mail.link}`;
  const paragraphs = mail.message
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`);
  if (mail.link !== null) {
    const link = escapeHtml(mail.link);
    paragraphs.push(`<p><a href="${link}">${link}</a></p>`);
  }
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(mail.subject)}</title></head><body>${paragraphs.join('')}</body></html>`;
  return { to: mail.to, subject: mail.subject, text, html };
}

/**
 * The address of a record's page in the app: the public address and the path of its entity's
 * detail screen; null when either is unknown.
 *
 * @example recordLink(model, 'https://help.example.com', 'Ticket', id) // 'https://help.example.com/tickets/…'
 */
export function recordLink(
  model: Model,
  publicUrl: string | null,
  entity: string,
  id: string,
): string | null {
  if (publicUrl === null) return null;
  const screen = model.screens.find((s) => s.entity === entity && s.kind === 'detail');
  if (screen === undefined) return null;
  return `${publicUrl.replace(/\/+$/, '')}${screen.path.replace(':id', encodeURIComponent(id))}`;
}

/** Text as HTML text: the five characters that could open markup or end an attribute, escaped. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
