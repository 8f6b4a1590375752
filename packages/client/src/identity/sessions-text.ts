/**
 * How a session is named to its owner: the browser and system from its user agent, and how it
 * began. A short guess from well-known tokens, not a parser: it names, it decides nothing.
 */
import { type SessionMethod } from '@ninefold/model';

/** How each way of signing in is named. */
export const METHOD_LABELS: Readonly<Record<SessionMethod, string>> = {
  password: 'Password',
  invitation: 'Invitation link',
  'sign-up': 'Sign-up link',
  'password-reset': 'Password reset link',
  sso: 'Single sign-on',
};

const BROWSERS: readonly [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/HeadlessChrome\//, 'Headless Chrome'],
  [/Chrom(e|ium)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/curl\//, 'curl'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/**
 * A session's browser and system, as people call them.
 *
 * @example browserName('Mozilla/5.0 (X11; Linux x86_64) … Firefox/128.0') // 'Firefox on Linux'
 */
export function browserName(userAgent: string | null): string {
  if (userAgent === null || userAgent === '') return 'Unknown browser';
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser === undefined) return userAgent.slice(0, 60);
  return system === undefined ? browser : `${browser} on ${system}`;
}
