/**
 * The app's language (decision 0067): which of the spec's locales the reader has, the texts of its
 * UI language, and `t`, which renders one. A small store outside React, so that start-up awaits
 * the first texts before the first render, and code outside components (toasts) speaks the same
 * language; `I18nProvider` hands it to components and re-renders them when the locale changes.
 *
 * The locale is the reader's choice (saved on the server for a signed-in user, in this browser
 * before signing in), else the browser's first language the spec offers, else the spec's default.
 * Texts are FormatJS's ICU templates: plain ones (and `{name}` arguments) are filled in at once, the
 * others with the ICU compiler, which loads with every area past the first (`catalogue.ts`).
 */
import { type MessageValues, simpleMessage } from '@ninefold/engine/message-text';
import { PSEUDO_LOCALE, directionOf, pickLocale, uiLanguageOf } from '@ninefold/model';
import { loadMessageFormat, messageCompiler } from '../runtime/messages';
import { ENGLISH_FIRST, type MessageKey, type Messages, loadFirst, loadRest } from './catalogue';

export type { MessageKey } from './catalogue';

/** Where this browser remembers the language picked before signing in. */
export const LOCALE_STORAGE_KEY = 'ninefold.locale';

export interface I18n {
  /** The reader's locale: one of the spec's (or the pseudo-locale). */
  readonly locale: string;
  /** The language of the UI texts: a shipped one, or the pseudo-locale. */
  readonly language: string;
  readonly dir: 'ltr' | 'rtl';
  /**
   * One text, its arguments filled in. While the areas past the first are loading, asking for one
   * of their keys suspends (the promise is thrown, as React's lazy code is); a key no catalogue has
   * shows as itself, which the catalogue tests catch.
   */
  t(key: MessageKey, values?: MessageValues): string;
  /** Settles once the first area of the locale is here: all the first render shows. */
  firstReady(): Promise<void>;
  /** Settles once every area, the ICU compiler and the built-in error messages are here. */
  ready(): Promise<void>;
  /** Whether `ready()` has settled for the current locale. */
  isReady(): boolean;
  /**
   * Switches to another of the spec's locales once its texts are here — all of them, or only the
   * first area (start-up, before the first render) — and remembers it in this browser.
   */
  setLocale(locale: string, until?: 'all' | 'first'): Promise<void>;
  /** The shipped translations of the built-in error messages, for the current language (`{}` until loaded). */
  builtinMessages(): Messages;
  /** Calls `listener` whenever the locale or its texts change; returns how to stop. */
  subscribe(listener: () => void): () => void;
  /** Changes whenever the texts change: `useSyncExternalStore`'s snapshot. */
  version(): number;
}

export interface I18nOptions {
  /** The spec's locales, its default first (`model.product.locales`). */
  readonly locales: readonly string[];
  /**
   * What the reader wants, most wanted first; by default this browser's remembered choice, then its
   * languages. The pseudo-locale is honoured when asked for first.
   */
  readonly wanted?: readonly string[];
}

/** The browser's wishes: the language remembered here, then its own languages. */
export function browserWanted(): string[] {
  const wanted: string[] = [];
  try {
    const remembered = globalThis.localStorage?.getItem(LOCALE_STORAGE_KEY);
    if (remembered) wanted.push(remembered);
  } catch {
    // storage refused (a private window): the browser's languages decide
  }
  if (typeof navigator !== 'undefined') wanted.push(...(navigator.languages ?? [navigator.language]));
  return wanted;
}

function remember(locale: string): void {
  try {
    globalThis.localStorage?.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // not remembered: the next visit guesses again
  }
}

/**
 * The language store of one app.
 *
 * @example const i18n = createI18n({ locales: model.product.locales }); await i18n.firstReady(); i18n.t('first.loading');
 */
export function createI18n(options: I18nOptions): I18n {
  const wanted = options.wanted ?? browserWanted();
  let locale = wanted[0] === PSEUDO_LOCALE ? PSEUDO_LOCALE : pickLocale(wanted, options.locales);
  const languageOfTag = (tag: string) => (tag === PSEUDO_LOCALE ? PSEUDO_LOCALE : uiLanguageOf(tag));
  // English's first area is in this chunk: its keys never wait (a render before firstReady() still
  // paints the shell at once, as a test's does)
  const seed = (): Record<string, string> => (languageOfTag(locale) === 'en' ? { ...ENGLISH_FIRST } : {});
  let messages: Record<string, string> = seed();
  let builtins: Messages = {};
  let first: Promise<void> | null = null;
  let rest: Promise<void> | null = null;
  let restDone = false;
  let version = 0;
  // the locale last asked for: of two quick choices, the later wins
  let choosing: string | null = null;
  const listeners = new Set<() => void>();
  const compiled = new Map<string, { format(values: MessageValues): unknown } | null>();

  const languageOf = (tag: string) => (tag === PSEUDO_LOCALE ? PSEUDO_LOCALE : uiLanguageOf(tag));
  const changed = () => {
    version += 1;
    for (const listener of listeners) listener();
  };
  // the pseudo-locale is English, made long and marked (its code loads only then)
  const pseudo = (messages: Messages) => import('./pseudo').then((module) => module.pseudoMessages(messages));
  const firstOf = async (language: string) =>
    language === PSEUDO_LOCALE ? pseudo(await loadFirst('en')) : loadFirst(language);
  const restOf = async (language: string) =>
    language === PSEUDO_LOCALE
      ? { messages: await pseudo((await loadRest('en')).messages), builtins: {} }
      : loadRest(language);

  const loadFirstOf = (target: string): Promise<void> =>
    firstOf(languageOf(target)).then((loaded) => {
      if (target !== locale) return;
      messages = { ...messages, ...loaded };
      changed();
    });
  const loadRestOf = (target: string): Promise<void> =>
    Promise.all([restOf(languageOf(target)), loadMessageFormat()]).then(([loaded]) => {
      if (target !== locale) return;
      messages = { ...messages, ...loaded.messages };
      builtins = loaded.builtins;
      restDone = true;
      changed();
    });
  // a failed load is tried again by the next ask
  const once = (load: () => Promise<void>, forget: () => void) =>
    load().catch((error: unknown) => {
      forget();
      throw error;
    });

  const i18n: I18n = {
    get locale() {
      return locale;
    },
    get language() {
      return languageOf(locale);
    },
    get dir() {
      return locale === PSEUDO_LOCALE ? 'ltr' : directionOf(locale);
    },
    t(key, values = {}) {
      const template = messages[key];
      if (template === undefined) {
        if (!restDone) throw i18n.ready();
        return key;
      }
      try {
        const simple = simpleMessage(template, values);
        if (simple !== undefined) return simple;
      } catch {
        return template;
      }
      const compile = messageCompiler();
      if (compile === null) {
        if (!restDone) throw i18n.ready();
        return template;
      }
      let message = compiled.get(template);
      if (message === undefined) compiled.set(template, (message = compile(template, locale)));
      if (message === null) return template;
      try {
        const parts = message.format(values);
        return Array.isArray(parts) ? parts.join('') : String(parts);
      } catch {
        return template;
      }
    },
    firstReady() {
      return (first ??= once(
        () => loadFirstOf(locale),
        () => (first = null),
      ));
    },
    ready() {
      return (rest ??= once(
        () => Promise.all([i18n.firstReady(), loadRestOf(locale)]).then(() => undefined),
        () => (rest = null),
      ));
    },
    isReady: () => restDone,
    async setLocale(next, until = 'all') {
      const target = next === PSEUDO_LOCALE ? PSEUDO_LOCALE : pickLocale([next], options.locales);
      if (target !== PSEUDO_LOCALE) remember(target);
      choosing = target;
      if (target === locale) return;
      // the texts shown stay until the new ones are all here: one switch, no flash of keys
      const language = languageOf(target);
      const [firstTexts, restTexts] = await Promise.all([
        firstOf(language),
        until === 'all'
          ? Promise.all([restOf(language), loadMessageFormat()]).then(([loaded]) => loaded)
          : null,
      ]);
      // a later choice won meanwhile
      if (choosing !== target) return;
      locale = target;
      messages = { ...firstTexts, ...restTexts?.messages };
      builtins = restTexts?.builtins ?? {};
      compiled.clear();
      restDone = restTexts !== null;
      first = Promise.resolve();
      rest = restDone ? Promise.resolve() : null;
      changed();
    },
    builtinMessages: () => builtins,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    version: () => version,
  };
  return i18n;
}
