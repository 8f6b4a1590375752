/**
 * The engine's errors as problem responses.
 */
import { type FieldError } from '@ninefold/engine';
import { type Model } from '@ninefold/model';
import { ApiError } from '../http/errors.js';

/** Codes the engine reports alone, for the whole request rather than for a field. */
const REQUEST_CODES = new Set(['E_TRANSITION_NOT_ALLOWED', 'E_TRANSITION_GUARD', 'E_FORBIDDEN']);

/**
 * The problem of a write's errors. A spec's own rule code (all errors sharing it) is the problem's
 * code, so its status and message reach the client as the catalogue says (E_OVER_APPROVAL_LIMIT is
 * a 403); otherwise E_VALIDATION, with every error beside its field.
 *
 * @example throw writeProblem(model, checked.errors);
 */
export function writeProblem(model: Model, errors: readonly FieldError[]): ApiError {
  const first = errors[0];
  if (first === undefined) return new ApiError('E_VALIDATION');
  const issues = errors.map((e) => ({ field: e.field, code: e.code, params: e.params }));
  if (errors.length === 1 && first.field === null && REQUEST_CODES.has(first.code)) {
    return new ApiError(first.code, first.params);
  }
  const own = errors.every((e) => e.code === first.code) && model.errors[first.code]?.builtin === false;
  if (own) return new ApiError(first.code, first.params, { errors: issues });
  return new ApiError('E_VALIDATION', {}, { errors: issues });
}
