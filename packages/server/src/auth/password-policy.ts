/**
 * What a new password must be (ASVS 5.0 V6.2, decision 0035): at least `PASSWORD_MIN_LENGTH`
 * characters and at most `PASSWORD_MAX_LENGTH` (counted in code points, so an emoji is one), and not
 * one of the common passwords the product ships (the 49,000 of `@zxcvbn-ts/language-common`, the list
 * the app's strength meter reads too). No composition rules: they make passwords worse, not better.
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

/**
 * The issues of a new password under a field name (`password` unless said), none when it will do.
 *
 * @example checkNewPassword('hunter22') // [{ field: 'password', code: 'E_PASSWORD_COMMON', … }]
 */
export function checkNewPassword(password: string, field = 'password'): FieldIssue[] {
  const label = 'Password';
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH)
    return [{ field, code: 'E_TOO_SHORT', params: { field: label, min: PASSWORD_MIN_LENGTH } }];
  if (length > PASSWORD_MAX_LENGTH)
    return [{ field, code: 'E_TOO_LONG', params: { field: label, max: PASSWORD_MAX_LENGTH } }];
  if (isCommonPassword(password)) return [{ field, code: 'E_PASSWORD_COMMON', params: {} }];
  return [];
}
