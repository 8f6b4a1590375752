/**
 * What the signed-in user may see and do, decided by the engine — the very functions the server
 * enforces with. The interface only hides what the server would refuse; it never grants.
 *
 * Navigation needs only the roles' grants, which load with the first page; the decisions on a
 * record evaluate CEL conditions, and that evaluator loads on its own, when a screen asks for it.
 */
import type { UserContext, WireRecord } from '@ninefold/engine';
import { type Action, mayOpenScreen } from '@ninefold/engine/grants';
import type { Screen, Transition } from '@ninefold/model';
import { use, useMemo } from 'react';
import { useSession } from '../auth/session';
import { loadDecisions } from './load-decisions';
import { useRuntime } from './runtime';

export interface Authorizer {
  readonly user: UserContext | null;
  /** Whether the action is allowed on this record (or on some record, without one). */
  can(action: Action, entity: string, record?: WireRecord | null): boolean;
  /** Fields the user may read on the record; `null` for all. */
  readable(entity: string, record?: WireRecord | null): readonly string[] | null;
  /** Fields the user may write; `null` for all writable ones. */
  writable(entity: string, action: 'create' | 'update', record?: WireRecord | null): readonly string[] | null;
  /** The transitions the user may fire on the record now. */
  transitions(entity: string, record: WireRecord): Transition[];
  mayOpen(screen: Screen): boolean;
}

// the loader lives apart so that start-up takes it without this hook (load-decisions.ts)
export { decisionsLoaded, loadDecisions } from './load-decisions';

/**
 * The engine's decisions for the signed-in user, at the runtime's clock. Until the evaluator has
 * loaded, the component suspends (its Suspense boundary shows the loader); React reads the same
 * promise synchronously once it has settled.
 */
export function useAuthorizer(): Authorizer {
  const { model, now } = useRuntime();
  const { data: session } = useSession();
  const engine = use(loadDecisions());
  const user = session?.context ?? null;
  return useMemo<Authorizer>(
    () => ({
      user,
      can: (action, entity, record) =>
        engine.can(model, user, action, entity, record ?? null, { now: now() }),
      readable: (entity, record) =>
        engine.readableFields(model, user, entity, record ?? null, { now: now() }),
      writable: (entity, action, record) =>
        engine.writableFields(model, user, entity, action, record ?? null, { now: now() }),
      transitions: (entity, record) =>
        engine.availableTransitions(model, user, entity, record, { now: now() }),
      mayOpen: (screen) => mayOpenScreen(model, user, screen),
    }),
    [engine, model, now, user],
  );
}
