/**
 * Default words for names the spec gives no label: one rule, so that the compiler's labels and the
 * client's (a state, an enum value, a system field) read the same.
 */

/** Words from a camelCase, PascalCase or snake_case name: `spentOn` → `Spent on`, `HTTPRequest` → `Http request`. */
export function humanize(name: string): string {
  const words = name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Plurals English makes by changing the word, by its last word in lower case. */
const IRREGULAR: Readonly<Record<string, string>> = {
  person: 'people',
  child: 'children',
  man: 'men',
  woman: 'women',
  foot: 'feet',
  tooth: 'teeth',
  mouse: 'mice',
  goose: 'geese',
  ox: 'oxen',
  criterion: 'criteria',
  phenomenon: 'phenomena',
  datum: 'data',
  medium: 'media',
  leaf: 'leaves',
  life: 'lives',
  knife: 'knives',
  wife: 'wives',
  half: 'halves',
  shelf: 'shelves',
  wolf: 'wolves',
  thief: 'thieves',
  hero: 'heroes',
  potato: 'potatoes',
  tomato: 'tomatoes',
  echo: 'echoes',
  quiz: 'quizzes',
};

/** Words whose plural is the word itself: uncountable nouns and a few that end in `s` either way. */
const UNCHANGED = new Set([
  'data',
  'equipment',
  'feedback',
  'information',
  'media',
  'metadata',
  'money',
  'news',
  'series',
  'species',
  'staff',
  'sheep',
  'fish',
  'deer',
  'aircraft',
  'software',
  'hardware',
  'inventory',
  'stock',
  'people',
  'children',
  'men',
  'women',
]);

/** Singular words that end in a single `s` (not `ss`, `us` or `is`): the rest already are plurals. */
const SINGULAR_IN_S = new Set(['gas', 'canvas', 'atlas', 'alias', 'bias', 'lens', 'yes', 'chaos']);

/**
 * The English plural of a label, made on its last word so that a label of several words reads
 * right; a word that already is a plural (`details`, `settings`) stays as it is.
 *
 * @example pluralLabel('Category') // 'Categories'; pluralLabel('Customer details') // 'Customer details'
 */
export function pluralLabel(label: string): string {
  const match = /^(.*?)([A-Za-z]+)([^A-Za-z]*)$/.exec(label);
  if (match === null) return label;
  const [, head = '', word = '', tail = ''] = match;
  return `${head}${pluralWord(word)}${tail}`;
}

function pluralWord(word: string): string {
  const lower = word.toLowerCase();
  const irregular = IRREGULAR[lower];
  if (irregular !== undefined) return sameCase(word, irregular);
  if (UNCHANGED.has(lower)) return word;
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}${sameCase(word.slice(-1), 'ies')}`;
  if (/is$/i.test(word) && word.length > 3) return `${word.slice(0, -2)}${sameCase(word.slice(-1), 'es')}`;
  if (/s$/i.test(word) && !/(ss|us)$/i.test(word) && !SINGULAR_IN_S.has(lower)) return word;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}${sameCase(word.slice(-1), 'es')}`;
  return `${word}${sameCase(word.slice(-1), 's')}`;
}

/** `plural` in the case of `model`: all capitals when it is, else as `plural`, first capital kept. */
function sameCase(model: string, plural: string): string {
  if (model.length > 1 && model === model.toUpperCase()) return plural.toUpperCase();
  if (model.length === 1)
    return model === model.toUpperCase() && model !== model.toLowerCase() ? plural.toUpperCase() : plural;
  return model.charAt(0) === model.charAt(0).toUpperCase()
    ? plural.charAt(0).toUpperCase() + plural.slice(1)
    : plural;
}
