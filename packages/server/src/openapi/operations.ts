/**
 * The pieces every operation of the OpenAPI document is made of: the catalogue codes a kind of
 * request may meet, and an operation's problem responses built from them. Shared by the document
 * (`document.ts`) and its record schemas (`schemas.ts`).
 */
import { type Model, PROBLEM_MEDIA_TYPE } from '@ninefold/model';

/** A piece of the document, as JSON. */
export type Json = Record<string, unknown>;

const PROBLEM = PROBLEM_MEDIA_TYPE;

/** Codes any request may meet; E_UNAVAILABLE when its database connection fails (decision 0023). */
export const ANY_REQUEST = ['E_RATE_LIMITED', 'E_INTERNAL', 'E_BAD_REQUEST', 'E_UNAVAILABLE'];
/** Codes of any request that needs a session or an API token (decision 0038). */
export const SIGNED_IN = [...ANY_REQUEST, 'E_UNAUTHENTICATED', 'E_SESSION_EXPIRED', 'E_TOKEN_EXPIRED'];
/** Codes of any request that changes data. */
export const CHANGING = [...SIGNED_IN, 'E_CSRF', 'E_PAYLOAD_TOO_LARGE'];
/** Codes of a change to a resource, which may carry an Idempotency-Key. */
export const WRITING = [...CHANGING, 'E_IDEMPOTENCY_KEY_REUSED'];
/** Codes of a request for one record by its id: no such record, or an id too long to route. */
export const BY_ID = ['E_NOT_FOUND', 'E_URI_TOO_LONG'];

/**
 * An operation with its problem responses, one per status, listing the codes of that status. A
 * response the operation declares for such a status keeps its headers (a 416's `Content-Range`):
 * the problem is its body.
 *
 * @example operation(model, SIGNED_IN, { operationId: 'listClaims', responses: {} })
 */
export function operation(model: Model, codes: readonly string[], extra: Json): Json {
  const byStatus = new Map<number, Set<string>>();
  for (const code of codes) {
    const def = model.errors[code];
    if (def === undefined) continue;
    let set = byStatus.get(def.status);
    if (set === undefined) byStatus.set(def.status, (set = new Set()));
    set.add(code);
  }
  const responses: Record<string, Json> = { ...(extra['responses'] as Record<string, Json>) };
  for (const [status, set] of [...byStatus].sort(([a], [b]) => a - b)) {
    const list = [...set].sort();
    const headers = responses[String(status)]?.['headers'];
    responses[String(status)] = {
      description: list.map((c) => `${c}: ${model.errors[c]?.description ?? ''}`).join('\n'),
      ...(headers === undefined ? {} : { headers }),
      content: {
        [PROBLEM]: {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/Problem' },
              { type: 'object', properties: { code: { enum: list }, status: { const: status } } },
            ],
          },
        },
      },
    };
  }
  return { ...extra, responses };
}

/**
 * The schema of a fixed answer `{ status: value }` (health, readiness).
 *
 * @example statusSchema('ok') // { type: 'object', required: ['status'], … }
 */
export function statusSchema(value: string): Json {
  return {
    type: 'object',
    required: ['status'],
    properties: { status: { const: value } },
  };
}
