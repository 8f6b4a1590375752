/**
 * Catalogue messages: an error code and its arguments rendered in the user's locale (ICU MessageFormat).
 */
import { type Model, type Value } from '@ninefold/spec/model';
import { IntlMessageFormat } from 'intl-messageformat';
import { lookup } from './record.js';

const formats = new WeakMap<Model, Map<string, IntlMessageFormat | null>>();

function compiledMessage(model: Model, template: string, locale: string): IntlMessageFormat | null {
  let byKey = formats.get(model);
  if (byKey === undefined) {
    byKey = new Map();
    formats.set(model, byKey);
  }
  const key = `${locale}\u0000${template}`;
  let format = byKey.get(key);
  if (format === undefined) {
    try {
      format = new IntlMessageFormat(template, locale);
    } catch {
      try {
        format = new IntlMessageFormat(template, 'en'); // an unknown or malformed locale
      } catch {
        format = null; // a template that does not parse is shown as written
      }
    }
    byKey.set(key, format);
  }
  return format;
}

/**
 * The message of a catalogue code with its arguments, in a locale. The spec's constants are always
 * available as arguments. An unknown code renders E_INTERNAL's message; a message that cannot be
 * formatted (a missing argument, a malformed template) falls back to its template. Never throws.
 *
 * @example formatMessage(model, 'E_TOO_LONG', { field: 'Title', max: 120 }, 'en') // 'Title must be at most 120 characters long.'
 */
export function formatMessage(
  model: Model,
  code: string,
  params: Readonly<Record<string, Value | undefined>> = {},
  locale: string = model.product.locale,
): string {
  const def = lookup(model.errors, code) ?? model.errors['E_INTERNAL'];
  const template = def?.message ?? 'Something went wrong on our side.';
  try {
    const format = compiledMessage(model, template, locale);
    if (format === null) return template;
    const values: Record<string, string | number | boolean | Date> = {};
    for (const [name, value] of Object.entries(model.constants)) values[name] = value;
    for (const [name, value] of Object.entries(params)) {
      if (value === undefined || value === null) continue;
      values[name] =
        typeof value === 'object' ? (Array.isArray(value) ? value.join(', ') : JSON.stringify(value)) : value;
    }
    const out = format.format(values);
    return typeof out === 'string' ? out : Array.isArray(out) ? out.join('') : String(out);
  } catch {
    return template;
  }
}
