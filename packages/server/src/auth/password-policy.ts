/**
 * What a new password must be (ASVS 5.0 V6.2, decision 0035): at least `PASSWORD_MIN_LENGTH`
 * characters and at most `PASSWORD_MAX_LENGTH` (counted in code points, so an emoji is one), and not
 * one of the common passwords the product ships (the 49,000 of `@zxcvbn-ts/language-common`, the list
 * the app's strength meter reads too), nor a context word with a few characters around it (ASVS
 * 6.1.2, 6.2.11): the product's name, and the person's e-mail address and name (`contextWords`).
 * No composition rules: they make passwords worse, not better.
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@ninefold/model';
import { dictionary } from '@zxcvbn-ts/language-common';
import { type FieldIssue } from '../http/errors.js';

let common: ReadonlySet<string> | undefined;

/** The common passwords, lower case: read once, at the first check. */
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common;
}

/**
 * Whether a password is on the common list (without regard to case).
 *
 * @example isCommonPassword('Password123') // true
 */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/** What a password must not be built on: the product's name, the person's address and name. */
export interface PasswordContext {
  readonly productName?: string;
  readonly email?: string;
  readonly name?: string;
}

/** Context words shorter than this are too common inside other words to refuse a password for. */
const MIN_CONTEXT_WORD = 4;

/**
 * The words of a context a password must not be built on, lower case: the product's name and its
 * words, "ninefold", the e-mail's local part and its domain's labels, the person's name and its words.
 *
 * @example contextWords({ productName: 'Helpdesk', email: 'ann.lee@example.com' }) // ['helpdesk', 'ninefold', 'ann.lee', 'example', …]
 */
export function contextWords(context: PasswordContext): string[] {
  const words = new Set<string>(['ninefold']);
  const add = (text: string | undefined) => {
    if (text === undefined) return;
    const lower = text.toLowerCase().trim();
    for (const word of [lower.replace(/\s+/g, ''), ...lower.split(/[^\p{L}\p{N}]+/u)])
      if ([...word].length >= MIN_CONTEXT_WORD) words.add(word);
  };
  add(context.productName);
  add(context.name);
  if (context.email !== undefined) {
    const [local, domain = ''] = context.email.toLowerCase().split('@');
    add(local);
    for (const label of domain.split('.').slice(0, -1)) add(label);
  }
  return [...words];
}

/**
 * Whether a password is a context word with fewer than `PASSWORD_MIN_LENGTH` characters around it:
 * `Helpdesk2024!` for the product Helpdesk, `ann.lee99` for ann.lee@example.com.
 *
 * @example isContextPassword('Helpdesk2024!', { productName: 'Helpdesk' }) // true
 */
export function isContextPassword(password: string, context: PasswordContext): boolean {
  const lower = password.toLowerCase().replace(/\s+/g, '');
  return contextWords(context).some(
    (word) => lower.includes(word) && [...lower.replace(word, '')].length < PASSWORD_MIN_LENGTH,
  );
}

/**
 * The issues of a new password under a field name (`password` unless said), none when it will do.
 *
 * @example checkNewPassword('hunter22') // [{ field: 'password', code: 'E_PASSWORD_COMMON', … }]
 * @example checkNewPassword('Helpdesk2024!', 'password', { productName: 'Helpdesk' }) // [{ …, code: 'E_PASSWORD_CONTEXT' }]
 */
export function checkNewPassword(
  password: string,
  field = 'password',
  context: PasswordContext = {},
): FieldIssue[] {
  const label = 'Password';
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH)
    return [{ field, code: 'E_TOO_SHORT', params: { field: label, min: PASSWORD_MIN_LENGTH } }];
  if (length > PASSWORD_MAX_LENGTH)
    return [{ field, code: 'E_TOO_LONG', params: { field: label, max: PASSWORD_MAX_LENGTH } }];
  if (isCommonPassword(password)) return [{ field, code: 'E_PASSWORD_COMMON', params: {} }];
  if (isContextPassword(password, context)) return [{ field, code: 'E_PASSWORD_CONTEXT', params: {} }];
  return [];
}
