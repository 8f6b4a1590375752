/**
 * Catalogue messages: an error code and its arguments rendered in the user's locale (ICU MessageFormat).
 * Simple templates are filled in by `message-text.ts`; the rest are compiled here, once each.
 */
import { type Model, type Value } from '@ninefold/model';
import { IntlMessageFormat } from 'intl-messageformat';
import { type CompiledMessage, type MessageCompiler, renderMessage } from './message-text.js';

const compiled = new Map<string, CompiledMessage | null>();

/**
 * An ICU template compiled for a locale (an unknown or malformed locale falls back to English), or
 * `null` for a template that does not parse. Kept per template and locale.
 */
export const compileMessage: MessageCompiler = (template, locale) => {
  const key = `${locale}\u0000${template}`;
  let format = compiled.get(key);
  if (format === undefined) {
    try {
      format = new IntlMessageFormat(template, locale);
    } catch {
      try {
        format = new IntlMessageFormat(template, 'en');
      } catch {
        format = null; // a template that does not parse is shown as written
      }
    }
    compiled.set(key, format);
  }
  return format;
};

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
  return renderMessage(model, code, params, locale, compileMessage);
}
