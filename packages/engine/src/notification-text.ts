/**
 * A notification's subject and message rendered for one recipient: the ICU template the spec wrote,
 * over the record's fields as the recipient may read them, the spec's constants and the person who
 * made the change (`{user.name}`). The template goes through `icuTemplate`, as the compiler's check
 * does, so every name the check accepted is filled in here. A name with no value (a field the
 * recipient may not read, an empty field, the system as the actor) renders as nothing, never as the
 * raw template. Angle brackets are text (`ignoreTag`), as they are to the compiler's check.
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

type Styles = Record<string, Intl.DateTimeFormatOptions>;
const inUtc = (styles: Styles): Styles =>
  Object.fromEntries(Object.entries(styles).map(([name, style]) => [name, { ...style, timeZone: 'UTC' }]));

/** `{dueAt, date, medium}` and the other named styles, in UTC: the model has no time zone yet (decision 0029). */
const UTC_FORMATS = {
  date: inUtc(IntlMessageFormat.formats['date'] as Styles),
  time: inUtc(IntlMessageFormat.formats['time'] as Styles),
};

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
  const ast = format.getAst();
  for (const name of argumentNames(ast)) {
    if (!Object.hasOwn(values, name)) values[name] = '';
  }
  try {
    const dated = withDates(ast, values);
    const out = (dated === ast ? format : messageFormat(dated, locale)).format(values);
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
    format = messageFormat(template, locale);
    cache.set(key, format);
  }
  return format;
}

function messageFormat(message: string | MessageFormatElement[], locale: string): IntlMessageFormat {
  try {
    return new IntlMessageFormat(message, locale, UTC_FORMATS, { ignoreTag: true });
  } catch {
    return new IntlMessageFormat(message, 'en', UTC_FORMATS, { ignoreTag: true });
  }
}

/**
 * Readies the values of `{x, date}` and `{x, time}`: a date or datetime's text becomes a Date; an
 * element whose value is no date (empty, unreadable) becomes empty text, as ICU would otherwise
 * fail. Returns the same AST when nothing had to go.
 */
function withDates(ast: MessageFormatElement[], values: MessageValues): MessageFormatElement[] {
  let changed = false;
  const visit = (elements: MessageFormatElement[]): MessageFormatElement[] =>
    elements.map((el): MessageFormatElement => {
      if (el.type === TYPE.date || el.type === TYPE.time) {
        const value = values[el.value];
        const date = typeof value === 'string' && value !== '' ? new Date(value) : value;
        if (date instanceof Date && !Number.isNaN(date.getTime())) {
          values[el.value] = date;
          return el;
        }
        changed = true;
        return { type: TYPE.literal, value: '' };
      }
      if (el.type === TYPE.plural || el.type === TYPE.select) {
        const options = Object.fromEntries(
          Object.entries(el.options).map(([key, option]) => [key, { ...option, value: visit(option.value) }]),
        );
        return { ...el, options } as MessageFormatElement;
      }
      return el;
    });
  const out = visit(ast);
  return changed ? out : ast;
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
