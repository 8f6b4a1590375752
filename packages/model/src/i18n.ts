/**
 * The languages of the app (decision 0067): which UI catalogues ship, which way each writes, and
 * which of a spec's locales a person gets. Plain functions over BCP 47 tags, shared by the compiler
 * (`check` warns of a spec locale without a shipped catalogue), the server (a user's saved choice,
 * `Accept-Language`) and the client (the browser's languages, the language menu).
 */

/** The languages whose UI catalogues ship with the app; English is the source of every text. */
export const UI_LANGUAGES = ['en', 'fr', 'de', 'es', 'pt', 'ja', 'ar'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

/**
 * The pseudo-locale: English made longer and accented, every text bracketed, so that a text left
 * out of the catalogues, or clipped by its box, shows (tests and `?pseudo`; never offered).
 */
export const PSEUDO_LOCALE = 'en-XA';

/** Languages written right to left: the layout is mirrored for them. */
const RIGHT_TO_LEFT = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'dv', 'ps', 'ku', 'sd', 'ug']);

/**
 * The primary language subtag of a locale tag, lower case.
 *
 * @example languageOf('fr-FR') // 'fr'
 */
export function languageOf(locale: string): string {
  return (locale.split(/[-_]/)[0] ?? '').toLowerCase();
}

/**
 * The shipped UI language of a locale: its own when one ships, English otherwise.
 *
 * @example uiLanguageOf('pt-BR') // 'pt'; uiLanguageOf('it-IT') // 'en'
 */
export function uiLanguageOf(locale: string): UiLanguage {
  const language = languageOf(locale);
  return (UI_LANGUAGES as readonly string[]).includes(language) ? (language as UiLanguage) : 'en';
}

/** Whether a UI catalogue ships for a locale's language. */
export function hasUiCatalogue(locale: string): boolean {
  return (UI_LANGUAGES as readonly string[]).includes(languageOf(locale));
}

/**
 * The direction a locale writes in.
 *
 * @example directionOf('ar-EG') // 'rtl'
 */
export function directionOf(locale: string): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(languageOf(locale)) ? 'rtl' : 'ltr';
}

/**
 * The offered locale that best fits what a person wants, in the order they want it: the same tag,
 * else the same language (`fr-CA` wanted, `fr-FR` offered); the first offered (the spec's default)
 * when none fits. Tags compare without regard to case.
 *
 * @example pickLocale(['fr-CA', 'en'], ['en-GB', 'fr-FR']) // 'fr-FR'
 */
export function pickLocale(wanted: readonly string[], offered: readonly string[]): string {
  const fallback = offered[0] ?? 'en';
  const lower = offered.map((tag) => tag.toLowerCase());
  for (const tag of wanted) {
    const exact = lower.indexOf(tag.toLowerCase());
    if (exact >= 0) return offered[exact]!;
    const language = languageOf(tag);
    const same = offered.find((candidate) => languageOf(candidate) === language);
    if (same !== undefined) return same;
  }
  return fallback;
}

/**
 * The tags of an `Accept-Language` header, most wanted first (`q=0` dropped).
 *
 * @example acceptedLanguages('fr-CH, fr;q=0.9, en;q=0.8') // ['fr-CH', 'fr', 'en']
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (header === undefined || header.trim() === '') return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ tag, q }) => tag !== '' && tag !== '*' && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag }) => tag);
}
