/**
 * What a write request brings: its body as a record (a JSON object whose text both databases can
 * store) and the version its `If-Match` names.
 */
import { type WireRecord, lookup } from '@ninefold/engine';
import { type Entity, IF_MATCH_HEADER, type Value } from '@ninefold/model';
import { type FastifyRequest } from 'fastify';
import { unstorable } from '../db/storable-text.js';
import { ApiError, type FieldIssue } from '../http/errors.js';

/**
 * The request body as a record of the entity: E_BAD_REQUEST for anything but a JSON object (or one
 * with a field name that is not storable text), and E_VALIDATION with E_FORMAT beside each field
 * whose value holds text that is not (a NUL character, a lone surrogate: `storable-text.ts`),
 * anywhere inside it.
 */
export function bodyObject(body: unknown, entity: Entity): WireRecord {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('E_BAD_REQUEST', { reason: 'the body must be a JSON object of field values' });
  }
  const issues: FieldIssue[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (unstorable(key) !== null) {
      throw new ApiError('E_BAD_REQUEST', {
        reason: 'a field name may not hold the NUL character or half of a surrogate pair',
      });
    }
    const expected = unstorableWithin(value);
    if (expected !== null) {
      const label = lookup(entity.fields, key)?.label ?? key;
      issues.push({ field: key, code: 'E_FORMAT', params: { field: label, expected } });
    }
  }
  if (issues.length > 0) throw new ApiError('E_VALIDATION', {}, { errors: issues });
  return body as WireRecord;
}

/**
 * Why some text inside a JSON value (a string, an item, a key or value of a nested object) cannot be
 * stored, or null. A walk with a stack of its own rather than recursion, whatever the depth.
 */
function unstorableWithin(value: unknown): string | null {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      const expected = unstorable(next);
      if (expected !== null) return expected;
    } else if (Array.isArray(next)) {
      for (const item of next as unknown[]) pending.push(item);
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, item] of Object.entries(next)) pending.push(key, item);
    }
  }
  return null;
}

/**
 * The version an `If-Match` names: E_PRECONDITION_REQUIRED when it is required and missing,
 * E_CONFLICT when it is not the record's current version. Without one (a delete), the version read.
 */
export function ifMatch(
  request: FastifyRequest,
  required: boolean,
  record: Readonly<Record<string, Value>>,
): number {
  const current = Number(record['version']);
  const header = request.headers[IF_MATCH_HEADER];
  if (header === undefined || header === '') {
    if (required) throw new ApiError('E_PRECONDITION_REQUIRED');
    return current;
  }
  const match = /^\s*(?:W\/)?"?([0-9]{1,15})"?\s*$/.exec(header);
  if (match === null) {
    throw new ApiError('E_BAD_REQUEST', { reason: 'If-Match must be the record’s version, like "3"' });
  }
  if (Number(match[1]) !== current) throw new ApiError('E_CONFLICT');
  return current;
}
