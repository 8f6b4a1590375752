/**
 * A refusal of an identity form, split as the form shows it: the server's field errors beside
 * their fields (by field name), and the rest above the form with its catalogue code.
 */
import { type ErrorCode, type Model } from '@ninefold/model';
import { ApiError } from '../api/http';
import { describeError } from '../runtime/messages';

export interface FormProblem {
  readonly code: ErrorCode;
  /** The message above the form; null when every error is beside a field. */
  readonly message: string | null;
  /** The server's error of each field the form shows, by field name. */
  readonly fields: Readonly<Record<string, string>>;
}

/**
 * Splits an error of an identity form into the lines beside `shown` fields and the one above.
 *
 * @example formProblem(model, error, ['password']).fields.password // 'Too short…'
 */
export function formProblem(model: Model, error: unknown, shown: readonly string[]): FormProblem {
  const described = describeError(model, error);
  const fields: Record<string, string> = {};
  if (error instanceof ApiError) {
    for (const problem of error.fieldErrors) {
      if (problem.field !== null && shown.includes(problem.field) && fields[problem.field] === undefined)
        fields[problem.field] = problem.message;
    }
  }
  // a problem about a password alone (a common one, the wrong current one) belongs beside it
  if (
    Object.keys(fields).length === 0 &&
    described.code === 'E_PASSWORD_COMMON' &&
    shown.includes('password')
  )
    fields['password'] = described.message;
  if (
    Object.keys(fields).length === 0 &&
    described.code === 'E_WRONG_PASSWORD' &&
    shown.includes('currentPassword')
  )
    fields['currentPassword'] = described.message;
  const placed = Object.keys(fields).length > 0;
  return { code: described.code, message: placed ? null : described.message, fields };
}
