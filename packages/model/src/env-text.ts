/**
 * Text that reads the environment: in a spec, `${NAME}` stands for the environment variable NAME,
 * so that secrets and per-deployment addresses (a webhook's URL and secret) never live in the spec.
 * The compiler keeps the text as written; the server resolves it once, at start.
 */

/** `${NAME}`: a variable name as a shell writes one. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The names of the variables a text reads, in order, each once.
 *
 * @example envReferences('https://${HOST}/hook?k=${KEY}') // ['HOST', 'KEY']
 */
export function envReferences(text: string): string[] {
  return [...new Set([...text.matchAll(REFERENCE)].map((match) => match[1]!))];
}

/** The text with its variables read, or the names of those that are unset or empty. */
export type ResolvedEnvText =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly missing: readonly string[] };

/**
 * Reads a text's variables from `env`. An empty variable counts as unset: an empty secret or URL
 * is a deployment mistake, not a value.
 *
 * @example resolveEnvText('${URL}', { URL: 'https://x.example' }) // { ok: true, text: 'https://x.example' }
 */
export function resolveEnvText(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): ResolvedEnvText {
  const missing = envReferences(text).filter((name) => (env[name] ?? '') === '');
  if (missing.length > 0) return { ok: false, missing };
  return { ok: true, text: text.replace(REFERENCE, (_, name: string) => env[name]!) };
}
