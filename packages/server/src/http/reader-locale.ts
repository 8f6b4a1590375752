/**
 * The language the server answers a request in (decisions 0067, 0068): the signed-in person's saved
 * locale when they chose one, else the best of the spec's locales for the request's
 * `Accept-Language`, else the spec's default. The model of that locale (`localizeModel`: the spec's
 * translated words, the built-in messages in its language) is made once per locale and kept.
 */
import { createRequire } from 'node:module';
import {
  acceptedLanguages,
  languageOf,
  localizeModel,
  pickLocale,
  UI_LANGUAGES,
  type Model,
} from '@ninefold/model';
import { type FastifyRequest } from 'fastify';

const require = createRequire(import.meta.url);

/** The shipped built-in messages by language, read on first use; English is the model's own. */
const builtins = new Map<string, Readonly<Record<string, string>>>();

function builtinMessages(locale: string): Readonly<Record<string, string>> {
  const language = languageOf(locale);
  if (language === 'en' || !(UI_LANGUAGES as readonly string[]).includes(language)) return {};
  let messages = builtins.get(language);
  if (messages === undefined) {
    messages = require(`@ninefold/model/catalogue/${language}.json`) as Record<string, string>;
    builtins.set(language, messages);
  }
  return messages;
}

/** The localized models of each model, by locale: a handful per server, made once. */
const localized = new WeakMap<Model, Map<string, Model>>();

/**
 * The model as a reader of `locale` meets it, made once per model and locale.
 *
 * @example modelIn(model, 'fr-FR').errors.E_REQUIRED.message // '{field} est obligatoire.'
 */
export function modelIn(model: Model, locale: string): Model {
  let byLocale = localized.get(model);
  if (byLocale === undefined) localized.set(model, (byLocale = new Map()));
  let shown = byLocale.get(locale);
  if (shown === undefined) {
    shown = localizeModel(model, locale, builtinMessages(locale));
    byLocale.set(locale, shown);
  }
  return shown;
}

/**
 * The locale a person is written to outside a request (a notification): their saved choice when the
 * spec still offers its language, else the spec's default.
 *
 * @example savedLocale(model, 'fr-FR') // 'fr-FR'; savedLocale(model, null) // model.product.locale
 */
export function savedLocale(model: Model, saved: string | null | undefined): string {
  const offered = model.product.locales;
  if (offered.length <= 1 || typeof saved !== 'string' || saved === '') return model.product.locale;
  return pickLocale([saved], offered);
}

/**
 * Which of the spec's locales a request is answered in: the person's saved choice (when the user
 * record carries one), else `Accept-Language`, else the default.
 *
 * @example readerLocale(model, request) // 'fr-FR' for `Accept-Language: fr-CH, en;q=0.5`
 */
export function readerLocale(model: Model, request: FastifyRequest): string {
  const offered = model.product.locales;
  if (offered.length <= 1) return model.product.locale;
  // `auth` is absent on a request refused before authentication ran
  const auth = (request as { auth?: { user?: { locale?: unknown } | null } }).auth;
  const saved = auth?.user?.locale;
  const wanted = typeof saved === 'string' && saved !== '' ? [saved] : [];
  return pickLocale([...wanted, ...acceptedLanguages(request.headers['accept-language'])], offered);
}
