/**
 * The loading of the engine's decisions on records (the CEL evaluator), apart from `useAuthorizer`
 * (access.ts): start-up and the screen gate only start the load, and keep this small module in the
 * first chunk, while the hook goes with the screens that use it.
 */
import type * as DecisionsModule from './decisions';
import { onDemand } from './lazy';

export type Decisions = typeof DecisionsModule;

const decisions = onDemand<Decisions>(() => import('./decisions'));

/**
 * Loads the engine's decisions on records (once; again after a failure, so that a retry can
 * succeed). Start-up calls it for a screen's address, so that it loads beside the session.
 *
 * @example void loadDecisions().catch(() => undefined);
 */
export const loadDecisions = (): Promise<Decisions> => decisions.load();

/** Whether the decisions have loaded: a component asking for them now does not suspend. */
export const decisionsLoaded = (): boolean => decisions.current() !== null;
