/**
 * Section 7's `notifications:`: who is told what, and when. Each notification listens to events,
 * names its recipients by the record's ref-to-User and email fields or by role, and renders an ICU
 * subject and message over the record's fields and the actor (`{user.name}`). Everything a
 * notification names is checked here against the entities it listens to, so that the server can
 * send it without a second guess.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import {
  ACTOR_ARGUMENTS,
  icuTemplate,
  notationArgumentName,
  NOTIFICATION_SYSTEM_ARGUMENTS,
  type Entity,
  type Notification,
  type NotificationChannel,
  type Recipient,
} from '@ninefold/model';
import { type Span } from '../diagnostics/diagnostic.js';
import { suggestion } from '../diagnostics/suggest.js';
import { own } from '../own.js';
import { type YEntry } from '../source/yaml.js';
import { type CompileContext } from './context.js';
import { contentStart, eventEntities, readEvents } from './events.js';
import { checkName } from './reader.js';

export const NOTIFICATION_KEYS = ['on', 'to', 'channels', 'subject', 'message', 'mandatory'] as const;
export const CHANNELS: readonly NotificationChannel[] = ['app', 'email'];

/**
 * Reads every notification; one with a problem is reported and left out.
 *
 * @example readNotifications(ctx, dict('notifications')) // { 'ticket-answered': { name, on, to, … } }
 */
export function readNotifications(
  ctx: CompileContext,
  entries: readonly YEntry[],
): Record<string, Notification> {
  const out: Record<string, Notification> = {};
  for (const entry of entries) {
    if (!checkName(ctx.bag, 'notification', entry)) continue;
    const notification = readNotification(ctx, entry);
    if (notification !== null) out[entry.key] = notification;
  }
  return out;
}

function readNotification(ctx: CompileContext, entry: YEntry): Notification | null {
  const { reader } = ctx;
  const where = `notification \`${entry.key}\``;
  const m = reader.map(entry.value, where, NOTIFICATION_KEYS);
  if (m === null) return null;
  for (const [key, example] of [
    ['on', 'on: Ticket.answer'],
    ['to', 'to: [requester]'],
    ['subject', 'subject: "Your ticket was answered"'],
  ] as const) {
    if (!m.has(key)) reader.missing(entry.keySpan, key, where, example);
  }
  const onEntry = m.get('on');
  const events = onEntry === undefined ? [] : readEvents(ctx, onEntry, where);
  const entities = eventEntities(ctx, events);
  const channels = readChannels(ctx, m.get('channels'), where);
  const toEntry = m.get('to');
  const to = toEntry === undefined ? [] : readRecipients(ctx, toEntry, entities, channels, where);
  const subject = readText(ctx, m.get('subject'), entities, `the subject of ${where}`);
  const message = readText(ctx, m.get('message'), entities, `the message of ${where}`);
  const mandatoryEntry = m.get('mandatory');
  const mandatory = mandatoryEntry
    ? reader.boolean(mandatoryEntry.value, `\`mandatory\` of ${where}`)
    : false;
  if (events.length === 0 || to.length === 0 || subject === null || message === null) return null;
  return {
    name: entry.key,
    on: events.map((e) => e.event),
    to,
    channels,
    subject,
    message,
    mandatory: mandatory ?? false,
  };
}

/** `channels:`: `app`, `email` or both; `[app]` when not given. */
function readChannels(ctx: CompileContext, entry: YEntry | undefined, where: string): NotificationChannel[] {
  if (entry === undefined) return ['app'];
  const { reader, bag } = ctx;
  const out: NotificationChannel[] = [];
  for (const { name, span } of reader.names(entry.value, `\`channels\` of ${where}`)) {
    if (!(CHANNELS as readonly string[]).includes(name)) {
      bag.report(
        'NF211',
        span,
        `\`${name}\` is not a channel of ${where}.`,
        `${suggestion(name, CHANNELS, 'channel')}; a notification is shown in the \`app\` or sent by \`email\``,
      );
    } else if (out.includes(name as NotificationChannel)) {
      bag.report('NF210', span, `The channel \`${name}\` is listed twice in ${where}.`, 'remove one');
    } else out.push(name as NotificationChannel);
  }
  if (out.length === 0 && entry.value.kind === 'seq' && entry.value.items.length === 0) {
    bag.report('NF203', entry.value.span, `${where} lists no channel.`, 'write `[app]`, `[email]` or both');
  }
  return out;
}

/**
 * `to:`: each name is a ref-to-User field (one or many), an email field of the record, or a role.
 * A field wins over a role of the same name. With several entities, the name must mean the same
 * kind of recipient on each.
 */
function readRecipients(
  ctx: CompileContext,
  entry: YEntry,
  entities: readonly Entity[],
  channels: readonly NotificationChannel[],
  where: string,
): Recipient[] {
  const { reader, bag } = ctx;
  const out: Recipient[] = [];
  const names = reader.names(entry.value, `\`to\` of ${where}`);
  if (entry.value.kind === 'seq' && entry.value.items.length === 0) {
    bag.report('NF203', entry.value.span, `\`to\` of ${where} names no recipient.`, 'name at least one');
  }
  for (const { name, span } of names) {
    let recipient: Recipient | null = null;
    for (const entity of entities) {
      const found = recipientOn(ctx, entity, name, span, where);
      if (found === null) {
        recipient = null;
        break;
      }
      if (recipient !== null && JSON.stringify(recipient) !== JSON.stringify(found)) {
        bag.report(
          'NF318',
          span,
          `\`${name}\` names a different kind of recipient on \`${entity.name}\` than on the other entities ${where} listens to.`,
          'listen to one entity per notification, or name a recipient that is the same on each',
        );
        recipient = null;
        break;
      }
      recipient = found;
    }
    if (recipient === null) continue;
    if (out.some((r) => JSON.stringify(r) === JSON.stringify(recipient))) {
      bag.report('NF210', span, `\`${name}\` is listed twice in \`to\` of ${where}.`, 'remove one');
      continue;
    }
    if (recipient.kind === 'email' && !channels.includes('email')) {
      bag.report(
        'NF319',
        span,
        `\`${name}\` is an email field, whose address only e-mail reaches, but ${where} is not sent by \`email\`.`,
        'add `email` to `channels`, like `channels: [app, email]`',
      );
      continue;
    }
    out.push(recipient);
  }
  return out;
}

function recipientOn(
  ctx: CompileContext,
  entity: Entity,
  name: string,
  span: Span,
  where: string,
): Recipient | null {
  const field = own(entity.fields, name);
  if (field !== undefined) {
    if (field.type === 'ref' && field.to === 'User') return { kind: 'user', field: name };
    if (field.type === 'email') return { kind: 'email', field: name };
    const kind =
      field.type === 'ref' ? `a ref to \`${field.to}\`` : `${article(field.type)} ${field.type} field`;
    ctx.bag.report(
      'NF318',
      span,
      `\`${entity.name}.${name}\` is ${kind}; ${where} can go only to a ref to User, an email field or a role.`,
      `expected one of ${[...recipientFields(entity), ...ctx.roleNames].map((n) => `\`${n}\``).join(', ')}`,
    );
    return null;
  }
  if (ctx.roleNames.includes(name)) return { kind: 'role', role: name };
  ctx.bag.report(
    'NF318',
    span,
    `\`${name}\` is neither a ref to User, an email field of \`${entity.name}\` nor a role, so ${where} cannot go to it.`,
    suggestion(name, [...recipientFields(entity), ...ctx.roleNames], 'recipient'),
  );
  return null;
}

/** The fields of an entity a notification can go to. */
function recipientFields(entity: Entity): string[] {
  return Object.values(entity.fields)
    .filter((f) => (f.type === 'ref' && f.to === 'User') || f.type === 'email')
    .map((f) => f.name);
}

/** A subject or message: ICU that uses only the names each listened-to entity has. */
function readText(
  ctx: CompileContext,
  entry: YEntry | undefined,
  entities: readonly Entity[],
  where: string,
): string | null {
  if (entry === undefined) return '';
  const text = ctx.reader.string(entry.value, where);
  if (text === null) return null;
  const start = contentStart(entry.value);
  const template = icuTemplate(text);
  let ast: MessageFormatElement[];
  try {
    ast = parse(template, { requiresOtherClause: true, shouldParseSkeletons: true, ignoreTag: true });
  } catch (error) {
    const e = error as { message: string; location?: { start: { offset: number } } };
    // offsets into a rewritten text point elsewhere in the original: then point at its start
    const at = start + (template === text ? (e.location?.start.offset ?? 0) : 0);
    ctx.bag.report(
      'NF501',
      { start: at, end: at + 1 },
      `${where.charAt(0).toUpperCase()}${where.slice(1)} is not valid ICU MessageFormat: ${e.message.toLowerCase().replace(/_/g, ' ')}.`,
      "arguments are written `{name}` or `{user.name}`; quote a literal brace as `'{'`",
    );
    return null;
  }
  let ok = true;
  for (const name of argumentNames(ast)) {
    for (const entity of entities) {
      const allowed = allowedArguments(ctx, entity);
      if (allowed.includes(name)) continue;
      ok = false;
      const offset = text.indexOf(`{${name}`);
      const at = offset < 0 ? start : start + offset + 1;
      ctx.bag.report(
        'NF320',
        { start: at, end: at + name.length },
        `${where.charAt(0).toUpperCase()}${where.slice(1)} uses \`{${name}}\`, which \`${entity.name}\` does not have.`,
        suggestion(name, allowed, 'name'),
      );
    }
  }
  return ok ? text : null;
}

/** The names a notification's text may use for a record of `entity`. */
function allowedArguments(ctx: CompileContext, entity: Entity): string[] {
  const system = NOTIFICATION_SYSTEM_ARGUMENTS.filter((n) => n !== 'state' || own(ctx.states, entity.name));
  return [...Object.keys(entity.fields), ...system, ...ACTOR_ARGUMENTS, ...Object.keys(ctx.constants)];
}

/** Every argument a parsed message reads, in notation form (`user.name`), each once. */
function argumentNames(ast: readonly MessageFormatElement[]): string[] {
  const names = new Set<string>();
  const visit = (elements: readonly MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
      if (el.type === TYPE.tag) {
        visit(el.children);
        continue;
      }
      names.add(notationArgumentName(el.value));
      if (el.type === TYPE.plural || el.type === TYPE.select) {
        for (const option of Object.values(el.options)) visit(option.value);
      }
    }
  };
  visit(ast);
  return [...names];
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
