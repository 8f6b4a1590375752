/**
 * The job runner: claims due jobs, runs each with the handler of its kind, and settles it — done,
 * retried later with exponential backoff, or dead after its last attempt (or at once, for a kind no
 * handler knows). It runs in the server process (`ninefold start`) and in `ninefold worker`; on
 * PostgreSQL any number of runners share one database, on SQLite one process runs them.
 *
 * A claim holds a lease: a runner that dies leaves its jobs to be claimed again once the lease ends,
 * so delivery is at least once, and handlers must be idempotent (a job's id is stable across its
 * attempts). A handler still running when its lease ends is aborted, as another runner may take
 * the job over.
 */
import { randomUUID } from 'node:crypto';
import { type Database } from '../db/open.js';
import { type Backoff, DEFAULT_BACKOFF, retryDelayMs } from './backoff.js';
import { type Job, type JobHandlers } from './job.js';
import { claimJobs, markDead, markDone, markRetry } from './store.js';
import { onJobEnqueued } from './wake.js';

export interface JobRunnerOptions {
  readonly database: Database;
  /** The handler of each kind this runner runs; it leaves a job of another kind to a runner that knows it. */
  readonly handlers: JobHandlers;
  /** The clock every time is taken from (tests move it by hand). */
  readonly now?: () => Date;
  /** How often to look for due jobs when not woken (default 1 s). */
  readonly pollMs?: number;
  /** How many jobs run at once (default 4). */
  readonly concurrency?: number;
  /** How long a claim holds a job before another runner may take it over (default 5 minutes). */
  readonly leaseMs?: number;
  readonly backoff?: Backoff;
  /** Told of what goes wrong around the jobs (a claim that fails, say); default: nothing. */
  readonly onError?: (error: unknown) => void;
}

/** A woken runner looks again after this long too: the job's transaction may not have committed. */
const WAKE_AGAIN_MS = 50;

/** How long stop() waits, after aborting the handlers past its timeout, for them to settle. */
const ABORT_GRACE_MS = 1000;

export class JobRunner {
  /** This runner's name in the leases it takes. */
  readonly owner = randomUUID();
  private readonly database: Database;
  private readonly handlers: JobHandlers;
  /** The kinds it claims: those it has a handler of. */
  private readonly kinds: readonly string[];
  private readonly now: () => Date;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly backoff: Backoff;
  private readonly onError: (error: unknown) => void;
  private readonly running = new Map<string, { done: Promise<void>; abort: AbortController }>();
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private started = false;
  private polling: Promise<void> | null = null;
  private pollAgain = false;

  constructor(options: JobRunnerOptions) {
    this.database = options.database;
    this.handlers = options.handlers;
    this.kinds = Object.keys(options.handlers);
    this.now = options.now ?? (() => new Date());
    this.pollMs = options.pollMs ?? 1000;
    this.concurrency = options.concurrency ?? 4;
    this.leaseMs = options.leaseMs ?? 5 * 60_000;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.onError = options.onError ?? (() => undefined);
  }

  /** Starts polling, and listens for jobs written in this process. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.unsubscribe = onJobEnqueued(() => this.wake());
    this.schedule(0);
  }

  /**
   * Stops claiming, then waits for the running handlers up to `timeoutMs`; past it, aborts them and
   * returns (their jobs are claimed again once their leases end).
   */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.started = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.polling;
    const all = Promise.all([...this.running.values()].map((run) => run.done));
    let timeout: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timeout = setTimeout(() => resolve('late'), timeoutMs);
    });
    const outcome = await Promise.race([all, late]);
    clearTimeout(timeout);
    if (outcome !== 'late') return;
    for (const run of this.running.values()) run.abort.abort(new Error('The runner stopped.'));
    // a handler that heeds its signal settles its job (a retry) at once; one that does not is left
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, ABORT_GRACE_MS).unref())]);
  }

  /**
   * Claims and runs the jobs due now, as many as the free slots allow, and waits for them: one round
   * of what the runner does on its own (tests call it to run due jobs deterministically).
   */
  async runDue(): Promise<number> {
    const free = this.concurrency - this.running.size;
    if (free <= 0) return 0;
    const now = this.now();
    const jobs = await claimJobs(
      this.database,
      this.owner,
      this.kinds,
      now,
      new Date(now.getTime() + this.leaseMs),
      free,
    );
    await Promise.all(jobs.map((job) => this.run(job)));
    return jobs.length;
  }

  /** The number of handlers running now. */
  get busy(): number {
    return this.running.size;
  }

  private wake(): void {
    if (!this.started) return;
    this.schedule(0);
    setTimeout(() => this.schedule(0), WAKE_AGAIN_MS).unref();
  }

  private schedule(delayMs: number): void {
    if (!this.started) return;
    if (this.polling !== null) {
      this.pollAgain = true;
      return;
    }
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.polling = this.poll().finally(() => {
        this.polling = null;
        this.schedule(this.pollAgain ? 0 : this.pollMs);
        this.pollAgain = false;
      });
    }, delayMs);
    this.timer.unref();
  }

  /** Claims what the free slots allow, starts the jobs without waiting, and returns. */
  private async poll(): Promise<void> {
    const free = this.concurrency - this.running.size;
    if (free <= 0) return;
    try {
      const now = this.now();
      const jobs = await claimJobs(
        this.database,
        this.owner,
        this.kinds,
        now,
        new Date(now.getTime() + this.leaseMs),
        free,
      );
      for (const job of jobs) {
        void this.run(job).finally(() => this.schedule(0));
      }
      // a full batch: there may be more due
      if (jobs.length === free) this.pollAgain = true;
    } catch (error) {
      this.onError(error);
    }
  }

  /** Runs one claimed job and settles it; never throws. */
  private run(job: Job): Promise<void> {
    const abort = new AbortController();
    const leaseEnds = setTimeout(
      () => abort.abort(new Error('The job ran past its lease.')),
      Math.max(0, (job.lockedUntil?.getTime() ?? 0) - this.now().getTime()),
    );
    leaseEnds.unref();
    const done = this.attempt(job, abort.signal)
      .catch((error: unknown) => this.onError(error))
      .finally(() => {
        clearTimeout(leaseEnds);
        this.running.delete(job.id);
      });
    this.running.set(job.id, { done, abort });
    return done;
  }

  private async attempt(job: Job, signal: AbortSignal): Promise<void> {
    // claimed by kind (`claimJobs`): its handler is one of this runner's
    const handler = this.handlers[job.kind]!;
    if (job.attempts > job.maxAttempts) {
      // claimed again after its last attempt's lease ran out: that process died mid-job
      await markDead(
        this.database,
        job,
        this.owner,
        'Its last attempt did not finish in time (its process stopped).',
        this.now(),
      );
      return;
    }
    try {
      await handler(job, signal);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const now = this.now();
      if (job.attempts >= job.maxAttempts) {
        await markDead(this.database, job, this.owner, message, now);
      } else {
        const delay = retryDelayMs(job.attempts, job.backoff ?? this.backoff);
        await markRetry(this.database, job, this.owner, message, new Date(now.getTime() + delay), now);
      }
      return;
    }
    await markDone(this.database, job, this.owner, this.now());
  }
}
