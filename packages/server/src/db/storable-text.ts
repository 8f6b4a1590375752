/**
 * Text both databases store as it was sent. PostgreSQL's text cannot hold U+0000 (a query that binds
 * it fails), and a lone UTF-16 surrogate (half a pair: a valid JavaScript string and valid JSON as
 * `"\ud800"`, but no character of UTF-8) is turned into U+FFFD on its way to one database and not
 * to the other. Such text is refused before any query, on every dialect alike (decision 0025).
 */

/** A code point in the surrogate range: in a `u` regular expression, a pair is one character. */
const LONE_SURROGATE = /\p{Cs}/u;

/** What text must be, as an E_FORMAT message's `{expected}`, when it holds the NUL character. */
export const WITHOUT_NUL = 'text without the NUL character (U+0000)';
/** What text must be, as an E_FORMAT message's `{expected}`, when it holds a lone surrogate. */
export const WELL_FORMED = 'well-formed Unicode text (it holds half of a surrogate pair)';

/**
 * Why text cannot be stored as it is (an E_FORMAT message's `{expected}`), or null when it can.
 *
 * @example unstorable('a\u0000b') // WITHOUT_NUL
 * @example unstorable('Taxi 🚕') // null
 */
export function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return WITHOUT_NUL;
  if (LONE_SURROGATE.test(text)) return WELL_FORMED;
  return null;
}
