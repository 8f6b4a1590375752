/**
 * Catalogue messages without the ICU parser: a template whose only syntax is `{name}` arguments is
 * filled in here, exactly as intl-messageformat fills it; any other template (plural, select, a
 * number or date format, quoting, tags) goes to a compiler the caller passes in. The engine's
 * `formatMessage` passes the ICU one; the client passes it once its chunk has loaded, so that its
 * first page carries no message parser.
 */
import { type Model, type Value, isFileInfo } from '@ninefold/model';
import { lookup } from './record.js';

export type MessageValues = Record<string, string | number | boolean | Date>;

/** A compiled template; `format` returns a string, or parts to join. */
export interface CompiledMessage {
  format(values: MessageValues): unknown;
}

/** Compiles an ICU template for a locale; `null` for a template that does not parse. */
export type MessageCompiler = (template: string, locale: string) => CompiledMessage | null;

const FALLBACK = 'Something went wrong on our side.';

/**
 * A template of literal text and `{name}` arguments only. An apostrophe is literal unless it
 * quotes (before `'`, a brace, `#`, `|` or a tag's angle bracket, or at the very end); `<` may open
 * a tag. Such templates are left to ICU.
 */
const SIMPLE = /^(?:[^{}'<>]|'(?=[^'{}<>#|])|\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\})*$/;
const ARGUMENT = /\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}/g;

/** Missing argument: intl-messageformat throws, and the message falls back to its template. */
class Missing extends Error {}

/**
 * A simple template filled in as intl-messageformat does for a `{name}` argument: strings and
 * numbers as `String()`, other falsy values as nothing, anything else as `String()` (a joined part);
 * `undefined` when the template is not simple.
 *
 * @example simpleMessage('{field} is required.', { field: 'Title' }) // 'Title is required.'
 */
export function simpleMessage(template: string, values: MessageValues): string | undefined {
  if (!SIMPLE.test(template)) return undefined;
  return template.replace(ARGUMENT, (_, name: string) => {
    if (!Object.hasOwn(values, name)) throw new Missing(name);
    const value = values[name];
    if (typeof value === 'string' || typeof value === 'number') return String(value);
    return value ? String(value) : '';
  });
}

/** The spec's constants and a message's arguments, as ICU takes them (lists joined, objects as JSON). */
export function messageValues(
  model: Model,
  params: Readonly<Record<string, Value | undefined>>,
): MessageValues {
  const values: MessageValues = {};
  for (const [name, value] of Object.entries(model.constants)) values[name] = value;
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    // a file is shown by its name (decision 0054); a list of files by their names
    values[name] =
      typeof value === 'object'
        ? Array.isArray(value)
          ? value.map((item) => (isFileInfo(item) ? item.name : item)).join(', ')
          : isFileInfo(value)
            ? value.name
            : JSON.stringify(value)
        : value;
  }
  return values;
}

/**
 * The message of a catalogue code with its arguments, in a locale. The spec's constants are always
 * available as arguments. An unknown code renders E_INTERNAL's message; a message that cannot be
 * formatted (a missing argument, a malformed template, no compiler for a template that needs one)
 * falls back to its template. Never throws.
 *
 * @example renderMessage(model, 'E_TOO_LONG', { field: 'Title', max: 120 }, 'en', compileMessage)
 */
export function renderMessage(
  model: Model,
  code: string,
  params: Readonly<Record<string, Value | undefined>>,
  locale: string,
  compile: MessageCompiler | null,
): string {
  const def = lookup(model.errors, code) ?? model.errors['E_INTERNAL'];
  const template = def?.message ?? FALLBACK;
  try {
    const values = messageValues(model, params);
    const simple = simpleMessage(template, values);
    if (simple !== undefined) return simple;
    const format = compile?.(template, locale) ?? null;
    if (format === null) return template;
    const out = format.format(values);
    return typeof out === 'string' ? out : Array.isArray(out) ? out.join('') : String(out);
  } catch {
    return template;
  }
}
