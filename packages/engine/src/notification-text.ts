/**
 * A notification's subject and message rendered for one recipient: the ICU template the spec wrote,
 * over the record's fields as the recipient may read them, the spec's constants and the person who
 * made the change (`{user.name}`). The template goes through `icuTemplate`, as the compiler's check
 * does, so every name the check accepted is filled in here. A name with no value (a field the
 * recipient may not read, an empty field, the system as the actor) renders as nothing, never as the
 * raw template.
 */
import { type MessageFormatElement, TYPE } from '@formatjs/icu-messageformat-parser';
import { ACTOR_ARGUMENTS, icuArgumentName, icuTemplate, type Model } from '@ninefold/model';
import { IntlMessageFormat } from 'intl-messageformat';
import { messageValues, type MessageValues } from './message-text.js';
import { type WireRecord } from './record.js';

/** Who made the change, as a notification's text names them; null for the system (the clock). */
export interface NotificationActor {
  readonly id: string;
  readonly name: string;
  readonly email: string;
}

/**
 * The text of a notification's subject or message for a record, in a locale. A template that does
 * not parse (the compiler refuses those) is returned as written. Never throws.
 *
 * @example
 * renderNotificationText(model, '{user.name} answered: {lastReply}', ticket, { id, name: 'Ann', email }, 'en')
 * // 'Ann answered: Try restarting it.'
 */
export function renderNotificationText(
  model: Model,
  template: string,
  record: WireRecord,
  actor: NotificationActor | null,
  locale: string,
): string {
  let format: IntlMessageFormat;
  try {
    format = compiled(icuTemplate(template), locale);
  } catch {
    return template;
  }
  const values: MessageValues = messageValues(model, record);
  for (const name of ACTOR_ARGUMENTS) {
    const key = name.slice('user.'.length) as keyof NotificationActor;
    values[icuArgumentName(name)] = actor === null ? '' : actor[key];
  }
  for (const name of argumentNames(format.getAst())) values[name] ??= '';
  try {
    const out = format.format(values);
    return typeof out === 'string' ? out : Array.isArray(out) ? out.join('') : String(out);
  } catch {
    return template;
  }
}

const cache = new Map<string, IntlMessageFormat>();

/** The template compiled for a locale (an unknown locale falls back to English), kept per both. */
function compiled(template: string, locale: string): IntlMessageFormat {
  const key = `${locale}\u0000${template}`;
  let format = cache.get(key);
  if (format === undefined) {
    try {
      format = new IntlMessageFormat(template, locale);
    } catch {
      format = new IntlMessageFormat(template, 'en');
    }
    cache.set(key, format);
  }
  return format;
}

/** Every argument name a parsed template reads, nested ones included. */
function argumentNames(ast: readonly MessageFormatElement[]): string[] {
  const names: string[] = [];
  for (const el of ast) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    if (el.type === TYPE.tag) {
      names.push(...argumentNames(el.children));
      continue;
    }
    names.push(el.value);
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      for (const option of Object.values(el.options)) names.push(...argumentNames(option.value));
    }
  }
  return names;
}
