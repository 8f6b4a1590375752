/**
 * What a write request brings: its body as a record (a JSON object, no NUL characters) and the
 * version its `If-Match` names.
 */
import { type WireRecord } from '@ninefold/engine';
import { IF_MATCH_HEADER, type Value } from '@ninefold/model';
import { type FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';

/** The request body as a record, or E_BAD_REQUEST for anything but a JSON object. */
export function bodyObject(body: unknown): WireRecord {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('E_BAD_REQUEST', { reason: 'the body must be a JSON object of field values' });
  }
  if (holdsNul(body)) {
    // PostgreSQL cannot store U+0000 in text; refused on every database alike
    throw new ApiError('E_BAD_REQUEST', { reason: 'text may not contain the NUL character (U+0000)' });
  }
  return body as WireRecord;
}

function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(([k, v]) => k.includes('\u0000') || holdsNul(v));
  }
  return false;
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
