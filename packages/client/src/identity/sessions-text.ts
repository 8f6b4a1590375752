/**
 * How a session is named to its owner: the browser and system from its user agent, and how it
 * began. A short guess from well-known tokens, not a parser: it names, it decides nothing.
 */
import { type SessionMethod } from '@ninefold/model';
import { type MessageKey } from '../i18n/catalogue';
import { type I18n } from '../i18n/i18n';

/** The catalogue key naming each way of signing in. */
export const METHOD_LABELS: Readonly<Record<SessionMethod, MessageKey>> = {
  password: 'identity.sessions.methodPassword',
  invitation: 'identity.sessions.methodInvitation',
  'sign-up': 'identity.sessions.methodSignUp',
  'password-reset': 'identity.sessions.methodPasswordReset',
  sso: 'identity.sessions.methodSso',
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
 * @example browserName('Mozilla/5.0 (X11; Linux x86_64) … Firefox/128.0', t) // 'Firefox on Linux'
 */
export function browserName(userAgent: string | null, t: I18n['t']): string {
  if (userAgent === null || userAgent === '') return t('identity.sessions.unknownBrowser');
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser === undefined) return userAgent.slice(0, 60);
  return system === undefined ? browser : t('identity.sessions.browserOn', { browser, system });
}
