/**
 * A spec word (an entity's label) inside a generated phrase ("No claims yet"): lower-cased where the
 * language writes common nouns in lower case, but "API keys" stays as it is, and German keeps its
 * capitalised nouns.
 *
 * @example inPhrase('Claims', 'en') // 'claims'
 * @example inPhrase('Ausgaben', 'de') // 'Ausgaben'
 */
export function inPhrase(word: string, language: string): string {
  if (!LOWER_CASE_NOUNS.has(language)) return word;
  return /^\p{Lu}\p{Ll}/u.test(word) ? word.charAt(0).toLocaleLowerCase(language) + word.slice(1) : word;
}

// languages whose common nouns are lower case mid-sentence (Japanese and Arabic have no case)
const LOWER_CASE_NOUNS = new Set(['en', 'fr', 'es', 'pt']);
