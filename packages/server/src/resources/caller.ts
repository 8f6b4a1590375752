/**
 * The caller of a resource's route: the signed-in user as the engine sees them, the request's
 * clock, and their read access to the entity; and the two read rules every route applies to a
 * record (its CEL activation, whether the caller may read it).
 */
import {
  type UserContext,
  accessFor,
  accessHolds,
  grantsOf,
  lazyActivation,
  utcDate,
} from '@ninefold/engine';
import { type Access, type Value } from '@ninefold/model';
import { type FastifyRequest } from 'fastify';
import { requireUserContext } from '../auth/request-auth.js';
import { weakMemo } from '../memo.js';
import { type EntityResource } from './resource.js';

/** A record's CEL activation (`lazyActivation`). */
export type Vars = Record<string, unknown>;

export interface Caller {
  readonly user: UserContext;
  readonly now: Date;
  /** The UTC date of `now`, for the CEL `today` of every record the request shows. */
  readonly today: string;
  /** The user's read access to the entity, decided once for every record the request shows. */
  readonly read: Access;
  /** No role of the user that reads the entity hides a field: a readable record is shown whole. */
  readonly unmasked: boolean;
}

/** How a resource knows its callers. */
export interface Callers {
  /** The signed-in caller of a request, or E_UNAUTHENTICATED / E_SESSION_EXPIRED. */
  of(request: FastifyRequest): Caller;
  /** A signed-in user as a caller now, outside a request (a live events stream, decision 0056). */
  ofUser(user: UserContext): Caller;
}

/**
 * The callers of one entity's resource.
 *
 * @example const caller = callers(resource).of(request);
 */
export function callers(resource: EntityResource): Callers {
  const { model, entity } = resource;
  /**
   * Decided by the user's roles alone: once per user context, which a cached session shares
   * (decision 0017: the role's read access and mask, about 1 µs of a get by id).
   */
  const readAccess = weakMemo((user: UserContext) => {
    const unmasked = grantsOf(model, user, entity).every(
      (grant) => grant.read === false || grant.readFields === null,
    );
    return { read: accessFor(model, user, 'read', entity), unmasked };
  });
  const ofUser = (user: UserContext): Caller => {
    const { read, unmasked } = readAccess(user);
    const now = resource.now();
    return { user, now, today: utcDate(now), read, unmasked };
  };
  return { of: (request) => ofUser(requireUserContext(request)), ofUser };
}

/**
 * The record in CEL, built once for the read check, the mask and the transitions; lazy, so that
 * only the fields their expressions read are converted.
 */
export function activation(resource: EntityResource, record: Record<string, Value>, caller: Caller): Vars {
  const { user, now, today } = caller;
  return lazyActivation(resource.model, resource.entity, record, { user, now, today });
}

/** Whether the caller may read the record: what `can(…, 'read', …)` decides, with the request's access. */
export function mayRead(
  resource: EntityResource,
  record: Record<string, Value>,
  caller: Caller,
  vars: Vars,
): boolean {
  const { user, now, today } = caller;
  return accessHolds(resource.model, resource.entity, caller.read, record, { user, now, today }, vars);
}
