/**
 * Catalogue messages rendered from their ICU templates.
 *
 * TODO(engine): replace with the engine's `formatMessage(model, code, params, locale)` once
 * `@ninefold/engine` exports it; this copy exists only so the server can answer before then.
 */
import { type Model, type Value } from '@ninefold/spec/model';
import { IntlMessageFormat } from 'intl-messageformat';

const cache = new WeakMap<Model, Map<string, IntlMessageFormat | null>>();

/**
 * The message of a catalogue code with its parameters; the spec's constants are always available.
 * Never throws: an unknown code renders E_INTERNAL's message, a template that cannot be formatted
 * is returned as written.
 *
 * @example renderMessage(model, 'E_PAYLOAD_TOO_LARGE', { limit: 1024 }) // 'The request is larger than 1,024 bytes.'
 */
export function renderMessage(
  model: Model,
  code: string,
  params: Readonly<Record<string, Value | undefined>> = {},
  locale: string = model.product.locale,
): string {
  const template = (model.errors[code] ?? model.errors['E_INTERNAL'])?.message ?? 'Something went wrong.';
  try {
    const format = compiled(model, template, locale);
    if (format === null) return template;
    const values: Record<string, string | number | boolean> = { ...model.constants };
    for (const [name, value] of Object.entries(params)) {
      if (value === undefined || value === null) continue;
      values[name] =
        typeof value === 'object' ? (Array.isArray(value) ? value.join(', ') : JSON.stringify(value)) : value;
    }
    const out = format.format(values);
    return Array.isArray(out) ? out.join('') : String(out);
  } catch {
    return template;
  }
}

function compiled(model: Model, template: string, locale: string): IntlMessageFormat | null {
  let byTemplate = cache.get(model);
  if (byTemplate === undefined) cache.set(model, (byTemplate = new Map()));
  const key = `${locale}\u0000${template}`;
  let format = byTemplate.get(key);
  if (format === undefined) {
    try {
      format = new IntlMessageFormat(template, locale);
    } catch {
      format = null;
    }
    byTemplate.set(key, format);
  }
  return format;
}
