/**
 * The app's own texts (decision 0067): one JSON catalogue per language and area
 * (`catalogues/<language>/<area>.json`), flat keys that start with their area (`list.empty`),
 * ICU MessageFormat templates — FormatJS's syntax, the engine's too. English is the source: its
 * files name every key, and `MessageKey` is their union, so a misspelt key is a type error.
 *
 * The `first` area is what the first chunk shows (the shell, the status pages): English's is in
 * that chunk, another language's loads before the first render. Its templates are plain text and
 * `{name}` arguments only, filled in without the ICU compiler. Every other area loads, for the
 * reader's language, right after the first render with the ICU compiler (`loadRest`); the screens
 * that show them are lazy chunks, which wait for it.
 */
import type account from './catalogues/en/account.json';
import type admin from './catalogues/en/admin.json';
import type common from './catalogues/en/common.json';
import type dashboard from './catalogues/en/dashboard.json';
import type detail from './catalogues/en/detail.json';
import type fields from './catalogues/en/fields.json';
import englishFirst from './catalogues/en/first.json';
import type form from './catalogues/en/form.json';
import type identity from './catalogues/en/identity.json';
import type list from './catalogues/en/list.json';
import type notifications from './catalogues/en/notifications.json';
import type offline from './catalogues/en/offline.json';

/** Every key of the app's catalogues. */
export type MessageKey =
  | keyof typeof englishFirst
  | keyof typeof common
  | keyof typeof list
  | keyof typeof dashboard
  | keyof typeof admin
  | keyof typeof detail
  | keyof typeof form
  | keyof typeof fields
  | keyof typeof identity
  | keyof typeof account
  | keyof typeof notifications
  | keyof typeof offline;

/** The areas of the catalogues, `first` first. */
export const AREAS = [
  'first',
  'common',
  'list',
  'dashboard',
  'admin',
  'detail',
  'form',
  'fields',
  'identity',
  'account',
  'notifications',
  'offline',
] as const;
export type Area = (typeof AREAS)[number];

/** Templates by key. */
export type Messages = Readonly<Record<string, string>>;

/** English's first area: in the first chunk. */
export const ENGLISH_FIRST: Messages = englishFirst;

// per language, two chunks: its first area, and the rest (`<language>/rest.ts`)
const firsts = import.meta.glob<Messages>('./catalogues/*/first.json', { import: 'default' });
const rests = import.meta.glob<{ messages: Messages; builtins: Messages }>('./catalogues/*/rest.ts');

/**
 * The first area of a language's catalogue (`{}` when the language ships none).
 *
 * @example const messages = await loadFirst('fr');
 */
export async function loadFirst(language: string): Promise<Messages> {
  if (language === 'en') return ENGLISH_FIRST;
  const load = firsts[`./catalogues/${language}/first.json`];
  return load === undefined ? {} : load();
}

/**
 * Every other area of a language's catalogue, and its translations of the built-in error messages
 * (`{}` for English, the built-in catalogue's own language).
 */
export async function loadRest(language: string): Promise<{ messages: Messages; builtins: Messages }> {
  const load = rests[`./catalogues/${language}/rest.ts`];
  return load === undefined ? { messages: {}, builtins: {} } : load();
}
