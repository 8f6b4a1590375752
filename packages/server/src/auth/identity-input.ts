/**
 * The bodies of identity's requests (decision 0037): a JSON object of exactly the named text
 * fields, nothing else (no mass assignment), each text both databases can hold. What is wrong is
 * an E_VALIDATION naming each field, as the resources answer.
 */
import { unstorable } from '../db/storable-text.js';
import { ApiError, type FieldIssue } from '../http/errors.js';

/** The longest text a field of these bodies may hold: an address, a name, a token, a password. */
const MAX_TEXT = 1_000;

/**
 * The body's text fields, or E_BAD_REQUEST (not an object) / E_VALIDATION (a field missing, of
 * another type, unknown).
 *
 * @example const { email } = readTexts(request.body, { email: 'Email' }, 'a password reset');
 */
export function readTexts<K extends string>(
  body: unknown,
  fields: Readonly<Record<K, string>>,
  what: string,
): Record<K, string> {
  const names = Object.keys(fields) as K[];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('E_BAD_REQUEST', {
      reason: `the body must be a JSON object with ${names.join(', ')}`,
    });
  }
  const record = body as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  for (const name of Object.keys(record)) {
    if (!(names as string[]).includes(name))
      issues.push({ field: name, code: 'E_UNKNOWN_FIELD', params: { field: name, entity: what } });
  }
  const out = {} as Record<K, string>;
  for (const name of names) {
    const label = fields[name];
    const value = record[name];
    if (value === undefined || value === null || value === '') {
      issues.push({ field: name, code: 'E_REQUIRED', params: { field: label } });
    } else if (typeof value !== 'string') {
      issues.push({ field: name, code: 'E_TYPE', params: { field: label, expected: 'text' } });
    } else if (value.length > MAX_TEXT) {
      issues.push({ field: name, code: 'E_TOO_LONG', params: { field: label, max: MAX_TEXT } });
    } else if (unstorable(value) !== null) {
      issues.push({ field: name, code: 'E_FORMAT', params: { field: label, expected: unstorable(value) } });
    } else {
      out[name] = value;
    }
  }
  if (issues.length > 0) throw new ApiError('E_VALIDATION', {}, { errors: issues });
  return out;
}
