/**
 * What every component of the app reads: the compiled model, the API client and the clock. One
 * context, set once at start-up; tests provide their own.
 */
import { type Model } from '@ninefold/model';
import { type ReactNode, createContext, use } from 'react';
import { type Http } from '../api/http';
import { type OpenEventSource } from '../live/stream';

export interface Runtime {
  readonly model: Model;
  readonly http: Http;
  /** The clock rules are decided at; tests fix it. */
  readonly now: () => Date;
  /** Opens the live stream; the browser's `EventSource` unless given (tests drive a fake one). */
  readonly eventSource?: OpenEventSource;
  /** How long a delete is held for its Undo (`held-deletes.ts`); the toast's time unless given. */
  readonly undoMs?: number;
}

const RuntimeContext = createContext<Runtime | null>(null);

export function RuntimeProvider({ runtime, children }: { runtime: Runtime; children: ReactNode }) {
  return <RuntimeContext value={runtime}>{children}</RuntimeContext>;
}

export function useRuntime(): Runtime {
  const runtime = use(RuntimeContext);
  if (runtime === null) throw new Error('useRuntime() needs a <RuntimeProvider> above it.');
  return runtime;
}

export const useModel = (): Model => useRuntime().model;
export const useHttp = (): Http => useRuntime().http;
