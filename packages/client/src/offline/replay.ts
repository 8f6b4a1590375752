/**
 * Replaying a user's queue: oldest first, each write with its own `Idempotency-Key`, so a write the
 * server already did (its answer lost) is answered, not done again. The network failing stops the
 * replay until the next try; a 401 stops it until the same user signs in again; any other refusal
 * takes the write out of the line — kept, with the server's problem, for the user to fix or discard.
 */
import { API_PATHS, type SessionAnswer, localProblem } from '@ninefold/model';
import { ApiError, type Http, NetworkError } from '../api/http';
import {
  type QueueKey,
  type QueuedWrite,
  changeWrite,
  isWaiting,
  readQueue,
  removeWrite,
  subscribeQueue,
} from './queue';
import { knownOffline, sendWrite } from './send';

/** How a replay ended: the queue is empty of waiting writes, the server is out of reach, or the session is gone. */
export type ReplayOutcome = 'done' | 'unreachable' | 'signed-out';

/** Answers that say "not now" rather than "no": the write is tried again later. */
const TRANSIENT = new Set([408, 429, 502, 503, 504]);

export interface ReplayOptions {
  readonly http: Http;
  readonly key: QueueKey;
  /** The user whose queue it is: nothing is sent unless the server's session is theirs. */
  readonly userId: string;
  /** Whether the app still has this user signed in (signing out stops a replay at once). */
  readonly signedIn?: () => boolean;
  /** Called for each write the server took, with its answer (the record, or nothing for a delete). */
  readonly onSent?: (write: QueuedWrite, answer: unknown) => void;
  /** Called for each write the server refused (its record may have changed since). */
  readonly onRefused?: (write: QueuedWrite) => void;
}

const running = new Map<QueueKey, Promise<ReplayOutcome>>();

/**
 * Sends the waiting writes of a queue in order; one replay per queue at a time in a tab (another
 * tab replaying the same write is harmless: the key makes it one write).
 *
 * @example await replayQueue({ http, key: queueKey(model, user.id) })
 */
export function replayQueue(options: ReplayOptions): Promise<ReplayOutcome> {
  const known = running.get(options.key);
  if (known !== undefined) return known;
  const run = replayAll(options).finally(() => running.delete(options.key));
  running.set(options.key, run);
  return run;
}

async function replayAll(options: ReplayOptions): Promise<ReplayOutcome> {
  const { http, key, onSent, onRefused } = options;
  // a write whose outcome the browser would not store is not tried twice in a run
  const tried = new Set<string>();
  for (;;) {
    const write = readQueue(key).find((w) => isWaiting(w) && !tried.has(w.key));
    if (write === undefined) return 'done';
    tried.add(write.key);
    let answer: unknown;
    try {
      // the session cookie is the browser's, not the tab's: another tab may have signed another
      // user in since this one last looked, and the write would be done as them
      if (options.signedIn?.() === false || (await sessionUser(http)) !== options.userId) return 'signed-out';
      answer = await sendWrite<unknown>(http, write);
    } catch (error) {
      if (error instanceof NetworkError) return 'unreachable';
      if (error instanceof ApiError && error.status === 401) return 'signed-out';
      if (error instanceof ApiError && TRANSIENT.has(error.status)) return 'unreachable';
      const problem = error instanceof ApiError ? error.problem : localProblem('E_INTERNAL', 500);
      changeWrite(key, write.key, (w) => ({ ...w, problem }));
      onRefused?.(write);
      continue;
    }
    removeWrite(key, write.key);
    rebase(key, write, answer);
    onSent?.(write, answer);
  }
}

/** The id of the user the server's session is for; null when there is none. */
async function sessionUser(http: Http): Promise<string | null> {
  try {
    return (await http.get<SessionAnswer>(API_PATHS.session)).user.id;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/**
 * The user's later writes to the same record were based on the version this one started from, as
 * they saw it with their own change waiting: now that it is in, they are based on the version it made.
 */
function rebase(key: QueueKey, sent: QueuedWrite, answer: unknown): void {
  const version = (answer as { version?: unknown } | undefined)?.version;
  if (sent.recordId === null || sent.version === undefined || typeof version !== 'number') return;
  for (const later of readQueue(key)) {
    if (later.recordId === sent.recordId && later.version === sent.version && isWaiting(later))
      changeWrite(key, later.key, (w) => ({ ...w, version }));
  }
}

export interface Replayer {
  /** Replays now (the connection came back, the user asked). */
  readonly now: () => void;
  readonly stop: () => void;
}

/**
 * Replays a queue whenever it may succeed: at once (start-up, sign-in), when the browser comes back
 * online, when a write joins the queue, and after a failure every `firstRetryMs`, doubling up to
 * `maxRetryMs`.
 *
 * @example const replayer = startReplayer({ http, key, onSent }); … replayer.stop();
 */
export function startReplayer(
  options: ReplayOptions & {
    readonly firstRetryMs?: number;
    readonly maxRetryMs?: number;
    /** Each replay's outcome, for the indicator. */
    readonly onOutcome?: (outcome: ReplayOutcome) => void;
  },
): Replayer {
  const first = options.firstRetryMs ?? 5_000;
  const max = options.maxRetryMs ?? 5 * 60_000;
  let delay = first;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let busy = false;
  let again = false;

  async function run(): Promise<void> {
    if (stopped) return;
    // nothing can be sent: the browser says when it is back (`online`)
    if (knownOffline()) {
      options.onOutcome?.('unreachable');
      return;
    }
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    clearTimeout(timer);
    timer = undefined;
    try {
      let outcome: ReplayOutcome;
      do {
        again = false;
        outcome = await replayQueue(options);
      } while (again && outcome === 'done' && !stopped);
      if (stopped) return;
      options.onOutcome?.(outcome);
      if (outcome === 'done') delay = first;
      else if (outcome === 'unreachable') {
        timer = setTimeout(() => void run(), delay);
        delay = Math.min(delay * 2, max);
      }
      // signed out: the session's return starts a new replayer
    } finally {
      busy = false;
    }
  }

  const online = () => {
    delay = first;
    void run();
  };
  // a write joining the queue (in this tab or another) is tried at once, unless a retry is due
  const unsubscribe = subscribeQueue(() => {
    if (timer === undefined && readQueue(options.key).some(isWaiting)) void run();
  });
  globalThis.addEventListener?.('online', online);
  // most start-ups have nothing to send: no work, no request
  if (readQueue(options.key).some(isWaiting)) void run();
  return {
    now: online,
    stop() {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
      globalThis.removeEventListener?.('online', online);
    },
  };
}
