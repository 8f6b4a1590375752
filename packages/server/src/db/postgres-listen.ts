/**
 * A connection of its own that LISTENs to a PostgreSQL channel, for every process to hear what
 * another wrote the moment its transaction commits (`NOTIFY`): a job to run (decision 0028), a
 * session to forget, a record changed (decision 0056).
 *
 * LISTEN belongs to a session, so it cannot share the pool's connections, which every request
 * borrows and hands back. Like the pool's clients (decision 0023), it keeps an `'error'` listener
 * for as long as it lives, so a dropped connection (a restart, a failover, `pg_terminate_backend`)
 * never ends the process: it connects again after a pause that grows from 0.25 s to 30 s. A
 * notification sent while it was away is lost, so every (re)connection is told as a notification
 * without a payload (`null`): its listener resynchronises then (the runner looks for due jobs, a
 * cache forgets what it holds), and the runner's poll stays as the fallback.
 */
import pg from 'pg';

/** How long a connection may take to be made before the attempt counts as failed. */
const CONNECT_TIMEOUT_MS = 5000;
const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 30_000;

/** The name the listening connection has in `pg_stat_activity`. */
export const LISTEN_APPLICATION_NAME = 'ninefold-listen';

/** A channel listened to: whether its first connection listens, and how to stop. */
export interface Listening {
  /** True once listening; false when the first attempt failed (it keeps trying). */
  readonly ready: Promise<boolean>;
  close(): Promise<void>;
}

/**
 * What a listener hears: a notification's payload (`''` when it was sent without one), or `null`
 * when the connection was (re)made and notifications may have been missed.
 */
export type OnNotify = (payload: string | null) => void;

/**
 * Listens to `channel` on the server at `url`, calling `onNotify` with the payload of each
 * notification, and with `null` on each (re)connection; `onError` hears why a connection failed or
 * dropped.
 *
 * @example const listening = listenTo(url, 'ninefold_jobs', () => runner.wake(), console.error);
 */
export function listenTo(
  url: string,
  channel: string,
  onNotify: OnNotify,
  onError: (error: unknown) => void,
): Listening {
  let closed = false;
  let current: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let delay = FIRST_RETRY_MS;
  let settleReady: (listening: boolean) => void = () => undefined;
  const ready = new Promise<boolean>((resolve) => (settleReady = resolve));

  const connect = async (): Promise<void> => {
    retry = null;
    if (closed) return;
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // an idle connection whose server vanished without a word (a partition) is found out, too
      keepAlive: true,
      application_name: LISTEN_APPLICATION_NAME,
    });
    let dropped = false;
    const drop = (error: unknown) => {
      // 'error' and 'end' both come for one loss: the first one counts
      if (dropped) return;
      dropped = true;
      if (current === client) current = null;
      void client.end().catch(() => undefined);
      if (closed) return;
      onError(error);
      settleReady(false);
      retry = setTimeout(() => void connect(), delay);
      retry.unref();
      delay = Math.min(delay * 2, LAST_RETRY_MS);
    };
    client.on('error', drop);
    client.on('end', () => drop(new Error(`The connection listening to ${channel} ended.`)));
    client.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`listen ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      drop(error);
      return;
    }
    if (closed || dropped) {
      await client.end().catch(() => undefined);
      return;
    }
    current = client;
    delay = FIRST_RETRY_MS;
    settleReady(true);
    onNotify(null);
  };

  void connect();
  return {
    ready,
    async close() {
      closed = true;
      if (retry !== null) clearTimeout(retry);
      settleReady(false);
      const client = current;
      current = null;
      await client?.end().catch(() => undefined);
    },
  };
}
