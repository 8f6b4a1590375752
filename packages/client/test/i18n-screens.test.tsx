import { isAdmin } from '@ninefold/engine/grants';
import { type DemoAccount, seedDemoAccounts, seedDemoData } from '@ninefold/demo';
import { translationLocale } from '@ninefold/language';
import {
  APP_PATHS,
  type Model,
  PSEUDO_LOCALE,
  SIGNED_IN_PATHS,
  type Screen,
  UI_LANGUAGES,
  directionOf,
} from '@ninefold/model';
import { act, waitFor } from '@testing-library/react';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AREAS } from '../src/i18n/catalogue';
import { type World, renderApp, world } from './harness';

/**
 * Every screen speaks the reader's language (issue 15): each example of examples/, against the real
 * server with its demo data, signed in as one user who holds every role (so every screen of the
 * spec opens), in every shipped language and in the pseudo-locale.
 *
 * - In `en-XA` (pseudo-localisation: every catalogue text is bracketed, `[Šàvé ··]`) every screen of
 *   the spec — list, detail of one record, create and edit forms, dashboards, pages — and the
 *   account, notification settings, help and about pages (and the admin pages, the user being an
 *   admin where the spec has one) must show no text that is not the catalogues' own: a visible text,
 *   placeholder, title or accessible name that is not bracketed is a leftover, unless it is data
 *   or the spec's words — any text of the model (labels, titles, enum values, help prose…), any value
 *   of the seeded records or users, or what Intl writes for numbers and dates — which are told apart
 *   by stripping them from the text and finding no letters left.
 * - In every shipped language, on a representative set of screens (the first list, detail, form and
 *   dashboard of each example, and the account page) — the full matrix took too long for two cores —
 *   no text may look like a catalogue key (`list.empty`), no English catalogue text may show where
 *   the language has its own, and the page's `lang` and `dir` are the locale's.
 *
 * One server, one seeding and one signed-in user per example; one app per locale, moved from screen
 * to screen through its history as a reader clicks through. Measured: about 90 s of CPU for the
 * file (4½ to 9 minutes of wall time on the shared two-core machine, most of it waiting for a core);
 * the full matrix of every screen in every language was about eight times the en-XA part alone.
 */

const EXAMPLES = readdirSync(join(process.cwd(), 'examples'))
  .filter((f) => /\.(md|ya?ml)$/.test(f) && translationLocale(f) === null)
  .sort();

/** The locale each shipped language is tested in (a region, as a browser would ask). */
const LOCALES: Record<(typeof UI_LANGUAGES)[number], string> = {
  en: 'en-GB',
  fr: 'fr-FR',
  de: 'de-DE',
  es: 'es-ES',
  pt: 'pt-BR',
  ja: 'ja-JP',
  ar: 'ar',
};

/** What looks like a catalogue key left as itself. */
const KEY_LIKE = new RegExp(`\\b(?:${AREAS.join('|')})\\.[a-z][\\w.-]*`);

const LETTER = /\p{L}/u;

/** Every catalogue of a language, flattened. */
function catalogueOf(language: string): Record<string, string> {
  const dir = join(process.cwd(), 'packages/client/src/i18n/catalogues', language);
  const out: Record<string, string> = {};
  for (const area of AREAS) {
    try {
      Object.assign(out, JSON.parse(readFileSync(join(dir, `${area}.json`), 'utf8')));
    } catch {
      // a missing area is the catalogue test's to report
    }
  }
  return out;
}

/** Every text inside a value (a model, a record), recursively; not its property names. */
function stringsIn(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === 'string') {
    const text = value.trim();
    if (LETTER.test(text)) into.add(text);
  } else if (Array.isArray(value)) for (const item of value) stringsIn(item, into);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) stringsIn(item, into);
  return into;
}

/** The words Intl writes for dates, times, relative times, lists and currencies in a locale. */
function intlWords(locale: string): Set<string> {
  const words = new Set<string>();
  const add = (text: string) => {
    for (const word of text.match(/\p{L}+/gu) ?? []) words.add(word);
  };
  for (let month = 0; month < 12; month++) {
    const date = new Date(Date.UTC(2026, month, 3 + month, 9 + month, 30));
    for (const month of ['long', 'short', 'narrow'] as const)
      add(new Intl.DateTimeFormat(locale, { month, weekday: 'long' }).format(date));
    add(
      new Intl.DateTimeFormat(locale, { weekday: 'short', hour: 'numeric', minute: 'numeric' }).format(date),
    );
    add(new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'full' }).format(date));
    add(new Intl.DateTimeFormat(locale, { timeZoneName: 'short', hour: 'numeric' }).format(date));
  }
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const unit of ['second', 'minute', 'hour', 'day', 'week', 'month', 'year'] as const)
    for (const n of [-2, -1, 0, 1, 2]) add(relative.format(n, unit));
  add(new Intl.ListFormat(locale, { type: 'conjunction' }).format(['a', 'b', 'c']));
  add(new Intl.ListFormat(locale, { type: 'disjunction' }).format(['a', 'b', 'c']));
  for (const currency of Intl.supportedValuesOf('currency')) {
    words.add(currency);
    add(new Intl.NumberFormat(locale, { style: 'currency', currency }).format(1));
  }
  add(new Intl.NumberFormat(locale, { notation: 'compact', compactDisplay: 'short' }).format(1_200_000));
  add(new Intl.NumberFormat(locale, { notation: 'compact', compactDisplay: 'short' }).format(1_200));
  return words;
}

/** What nobody sees or hears: code, and what is hidden from everyone (Mantine's measuring textarea). */
const HIDDEN = 'script, style, noscript, template, [hidden], [aria-hidden="true"]';

/** A text the reader sees, where it was found. */
interface Shown {
  readonly text: string;
  readonly where: string;
}

/** The texts of the page: text nodes, and the placeholders, titles and accessible names of elements. */
function shownTexts(): Shown[] {
  const out: Shown[] = [];
  const describe = (element: Element | null) =>
    element === null
      ? '?'
      : `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${
          element.getAttribute('class')?.split(/\s+/)[0]
            ? `.${element.getAttribute('class')!.split(/\s+/)[0]}`
            : ''
        }`;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent === null || parent.closest(HIDDEN) !== null) continue;
    const text = (node.textContent ?? '').trim();
    if (text !== '') out.push({ text, where: describe(parent) });
  }
  for (const element of document.body.querySelectorAll('[placeholder], [title], [aria-label]')) {
    if (element.closest(HIDDEN) !== null) continue;
    for (const attribute of ['placeholder', 'title', 'aria-label']) {
      const text = element.getAttribute(attribute)?.trim();
      if (text) out.push({ text, where: `${describe(element)}[${attribute}]` });
    }
  }
  return out;
}

/** Waits until the page has its main heading and nothing is loading any more. */
async function settle(path: string): Promise<void> {
  await waitFor(
    () => {
      const busy = document.querySelector(
        '.mantine-Loader-root, [aria-busy="true"], .mantine-Skeleton-root[data-visible="true"]',
      );
      if (document.querySelector('h1') === null || busy !== null)
        throw new Error(`${path} did not settle: ${busy === null ? 'no heading' : 'still loading'}`);
    },
    { timeout: 15_000 },
  );
  // a last round of answers (counts, ref names) lands after the heading
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
}

interface Example {
  readonly file: string;
  readonly w: World;
  readonly model: Model;
  /** Every screen's path, with a record of its entity where it needs one. */
  readonly paths: { readonly screen: Screen | null; readonly path: string }[];
  /** The texts that are data or the spec's own: the model's, the seeded records' and users'. */
  readonly data: readonly string[];
}

/** An example's server, seeded with its demo data, and the user of every role signed in. */
async function arrange(file: string): Promise<Example> {
  const w = await world(file);
  const { model, server } = w;
  const roles = Object.keys(model.roles);
  const accounts: DemoAccount[] = await seedDemoAccounts(server.database, model);
  await seedDemoData(server.app, server.database, model, accounts, { perEntity: 2 });
  await w.user('reader', roles);

  const records = new Map<string, Record<string, unknown>[]>();
  const data = stringsIn(model, new Set());
  for (const [name, entity] of Object.entries(model.entities)) {
    const answer = await w.api('reader', 'GET', `${model.calls.basePath}/${entity.resource}?limit=100`);
    const rows = answer.status === 200 ? ((answer.body['data'] ?? []) as Record<string, unknown>[]) : [];
    records.set(name, rows);
    stringsIn(rows, data);
  }
  for (const account of accounts) stringsIn(account, data);
  stringsIn(w.users, data);
  data.add('reader');
  // the browser of the test's sessions (light-my-request's user agent), as the account page lists it
  data.add('lightMyRequest');

  const paths: Example['paths'] = [];
  for (const screen of model.screens) {
    if (!screen.path.includes(':id')) {
      paths.push({ screen, path: screen.path });
      continue;
    }
    const id = records.get(screen.entity ?? '')?.[0]?.['id'];
    // a seeded record opens it; an entity no demo record could be made of has no such page to see
    if (typeof id === 'string') paths.push({ screen, path: screen.path.replace(':id', id) });
  }
  for (const path of [
    SIGNED_IN_PATHS.account,
    SIGNED_IN_PATHS.notificationSettings,
    APP_PATHS.help,
    APP_PATHS.about,
  ])
    if (!model.screens.some((s) => s.path === path)) paths.push({ screen: null, path });
  if (isAdmin(model, roles))
    for (const path of [SIGNED_IN_PATHS.adminJobs, SIGNED_IN_PATHS.adminMail, SIGNED_IN_PATHS.adminAudit])
      paths.push({ screen: null, path });
  // the longest first: a text is stripped of a long data text before one of its words
  return { file, w, model, paths, data: [...data].sort((a, b) => b.length - a.length) };
}

/** The representative screens every language is checked on: the first list, detail, form and dashboard, and the account. */
function representative(example: Example): Example['paths'] {
  const first = (...kinds: Screen['kind'][]) =>
    kinds
      .map((kind) => example.paths.find(({ screen }) => screen?.kind === kind))
      .find((p) => p !== undefined);
  const picked = [first('list'), first('detail'), first('create', 'edit'), first('dashboard')];
  return [...picked.filter((p) => p !== undefined), { screen: null, path: SIGNED_IN_PATHS.account }];
}

/**
 * Opens each path in turn in one app, and returns the problems `check` finds there: one line per
 * problem, with the pages it is on (the shell's leftovers are on every page).
 */
async function visit(
  example: Example,
  locale: string,
  paths: Example['paths'],
  check: (shown: Shown[]) => string[],
): Promise<string[]> {
  const found = new Map<string, string[]>();
  const report = (problem: string, path: string) => {
    const on = found.get(problem) ?? [];
    if (!on.includes(path)) on.push(path);
    found.set(problem, on);
  };
  const app = renderApp(example.w, { as: 'reader', path: paths[0]!.path, locale });
  try {
    for (const [index, { path }] of paths.entries()) {
      if (index > 0) act(() => app.history.push(path));
      await settle(path);
      const { lang, dir } = document.documentElement;
      if (lang !== locale) report(`<html lang="${lang}">, not ${locale}`, path);
      const wantedDir = locale === PSEUDO_LOCALE ? 'ltr' : directionOf(locale);
      if (dir !== wantedDir) report(`<html dir="${dir}">, not ${wantedDir}`, path);
      for (const problem of check(shownTexts())) report(problem, path);
    }
  } finally {
    app.unmount();
  }
  return [...found].map(([problem, on]) =>
    on.length === paths.length ? `${problem} on every page` : `${problem} on ${on.join(', ')}`,
  );
}

/** Texts that look like a catalogue key. */
function keyProblems(shown: Shown[]): string[] {
  return shown
    .filter(({ text }) => KEY_LIKE.test(text))
    .map(({ text, where }) => `key "${text}" in ${where}`);
}

/** Texts in English's catalogue wording where the language has its own. */
function englishProblems(language: string, example: Example): (shown: Shown[]) => string[] {
  const english = catalogueOf('en');
  // the spec's words where its translations leave them in its own language ("Name", a role's
  // label) are data, not leftovers
  const specWords = new Set(example.data.map(folded));
  const own = catalogueOf(language);
  // a word the language shares with English for another key ("Filter" in German) is its own
  const ownTexts = new Set(Object.values(own));
  const leftovers = new Set<string>();
  for (const [key, text] of Object.entries(english)) {
    const translated = own[key];
    // a plain English text of some length, which the language words otherwise
    if (
      !/[{}]/.test(text) &&
      text.length >= 4 &&
      translated !== undefined &&
      translated !== text &&
      !ownTexts.has(text)
    )
      leftovers.add(text);
  }
  return (shown) =>
    shown
      .filter(({ text }) => leftovers.has(text) && !specWords.has(folded(text)))
      .map(({ text, where }) => `English "${text}" in ${where}`);
}

/** A text as compared with data: its spaces collapsed (Markdown and HTML fold line breaks). */
const folded = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim();

/** A name as the app shows it when the spec gives no label: `videoConference` → `video conference`. */
const humanised = (name: string) =>
  folded(name.replace(/(\p{Ll}|\d)(\p{Lu})/gu, '$1 $2').replace(/[-_]+/g, ' ')).toLowerCase();

/** `text` without the whole-word occurrences of `known`. */
function without(text: string, known: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf(known); at >= 0; at = text.indexOf(known, at + 1)) {
    const before = text[at - 1] ?? ' ';
    const after = text[at + known.length] ?? ' ';
    if (LETTER.test(before) || LETTER.test(after) || at < from) continue;
    out += `${text.slice(from, at)} `;
    from = at + known.length;
  }
  return out + text.slice(from);
}

/**
 * Texts neither bracketed by the pseudo-locale nor data nor the spec's words. A text is data when it
 * is one of the data texts (whatever its case: the app capitalises a label, lowercases it in a
 * sentence), a piece of a longer one (prose the Markdown split; several words, the same case), or
 * made of data texts, Intl's words and no letters else.
 */
function pseudoProblems(example: Example): (shown: Shown[]) => string[] {
  const vocabulary = intlWords(PSEUDO_LOCALE);
  const data = example.data.map(folded).filter((known) => known.length >= 3);
  const whole = new Set(example.data.flatMap((known) => [folded(known).toLowerCase(), humanised(known)]));
  const all = data.join('\u0000');
  // every word of the data: the Markdown of the spec's prose puts single words in their own element
  const dataWords = new Set(
    data.flatMap((known) => known.toLowerCase().match(/\p{L}[\p{L}\p{M}'’-]*/gu) ?? []),
  );
  const verdicts = new Map<string, boolean>();
  const isChrome = (text: string): boolean => {
    // the catalogues' texts, each whole in its node or attribute, as the pseudo-locale brackets them;
    // a sentence with an element inside (a link, a time) is split into pieces of one bracketed text:
    // its first and last pieces open or close the brackets, and its words are the pseudo-locale's
    let rest = folded(
      text
        .replace(/\[[^\]]*\]/g, ' ')
        .replace(/\[[^\]]*$/, ' ')
        .replace(/^[^[]*\]/, ' ')
        .replace(/\S*[àéîöüçñšýžÀÉÎÖÜÇÑŠÝŽ]\S*/g, ' '),
    );
    if (!LETTER.test(rest) || whole.has(rest.toLowerCase())) return false;
    if (!rest.includes(' ') && dataWords.has(rest.toLowerCase())) return false;
    if (rest.includes(' ') && all.includes(rest)) return false;
    // identifiers of the server's own (a job's kind): code, not words
    if (/^[a-z][a-z0-9]*(?:\.[a-z][\w-]*)+$/.test(rest)) return false;
    for (const known of data) {
      if (rest.includes(known)) rest = without(rest, known);
      if (!LETTER.test(rest)) return false;
    }
    return (rest.match(/\p{L}[\p{L}\p{M}'’-]*/gu) ?? []).some((word) => !vocabulary.has(word));
  };
  return (shown) =>
    shown.flatMap(({ text, where }) => {
      if (KEY_LIKE.test(text)) return [`key "${text}" in ${where}`];
      let chrome = verdicts.get(text);
      if (chrome === undefined) verdicts.set(text, (chrome = isChrome(text)));
      return chrome ? [`not from the catalogues: "${text}" in ${where}`] : [];
    });
}

for (const file of EXAMPLES) {
  describe(file, () => {
    let example: Example;
    beforeAll(async () => {
      example = await arrange(file);
    }, 120_000);

    it(`${PSEUDO_LOCALE}: every screen shows only catalogue texts, data and the spec's words`, async () => {
      const problems = await visit(example, PSEUDO_LOCALE, example.paths, pseudoProblems(example));
      expect(problems).toEqual([]);
    }, 180_000);

    for (const language of UI_LANGUAGES) {
      const locale = LOCALES[language];
      it(`${locale}: no key and no English text on a list, a detail, a form, a dashboard and the account`, async () => {
        const english = language === 'en' ? () => [] : englishProblems(language, example);
        const problems = await visit(example, locale, representative(example), (shown) => [
          ...keyProblems(shown),
          ...english(shown),
        ]);
        expect(problems).toEqual([]);
      }, 120_000);
    }
  });
}
