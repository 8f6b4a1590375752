/**
 * The handler of a webhook delivery job: sends the message as the Standard Webhooks specification
 * says, and keeps the delivery log in step with each attempt.
 *
 * - Headers: `webhook-id` (the message's id: the first delivery's job id, the same on every attempt
 *   and every re-send, so a receiver can drop a message it has), `webhook-timestamp` (seconds, the
 *   time of this attempt by the system's clock — the receiver checks it against its own to refuse
 *   replays), `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under
 *   the secret, as the `standardwebhooks` package signs), `content-type: application/json`.
 * - A 2xx answer delivers it. Anything else — another status (a redirect too: it is not followed),
 *   no answer within the timeout (10 s), a network error, an address refused (`address.ts`) — fails
 *   the attempt: the log keeps the status and the start of the answer or the reason, and the job
 *   is retried (`WEBHOOK_BACKOFF`); after the last attempt the delivery is `failed`.
 */
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { type Database } from '../db/open.js';
import { type Job, type JobHandler } from '../jobs/job.js';
import { TABLES } from '../schema/names.js';
import { checkAddress } from './address.js';
import { type WebhookPayload } from './enqueue.js';
import { MAX_ANSWER_LENGTH, type PostAnswer, postTo } from './post.js';
import { type ResolvedWebhooks } from './resolve.js';

/** How long a receiver has to answer (default). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/** What the handler needs. */
export interface DeliveryContext {
  readonly database: Database;
  readonly webhooks: ResolvedWebhooks;
  /** The clock of the log's times (the test's, in tests). */
  readonly now: () => Date;
  /** How long a receiver has to answer (default 10 s). */
  readonly timeoutMs?: number;
}

/** What a delivery job carries, with the id of the message when it is a re-send. */
export type DeliveryPayload = WebhookPayload & { readonly messageId?: string };

/** One attempt that did not deliver: the receiver's status (or null) and what it said or why none did. */
class AttemptFailed extends Error {
  constructor(
    readonly status: number | null,
    readonly answer: string,
  ) {
    super(status === null ? answer : `The receiver answered ${status}: ${answer}`);
  }
}

/**
 * The handler of `ninefold.webhook` jobs.
 *
 * @example const handlers = { [WEBHOOK_JOB]: webhookHandler({ database, webhooks: resolveWebhooks(model, process.env), now }) };
 */
export function webhookHandler(context: DeliveryContext): JobHandler {
  return async (job, signal) => {
    try {
      const answer = await attempt(context, job, signal);
      await log(context, job, 'delivered', answer.status, answer.text);
    } catch (error) {
      const failed =
        error instanceof AttemptFailed
          ? error
          : new AttemptFailed(null, error instanceof Error ? error.message : String(error));
      const last = job.attempts >= job.maxAttempts;
      await log(context, job, last ? 'failed' : 'pending', failed.status, failed.answer);
      throw failed;
    }
  };
}

/** Sends the message once; the receiver's answer when delivered, else throws {@link AttemptFailed}. */
async function attempt(context: DeliveryContext, job: Job, signal: AbortSignal): Promise<PostAnswer> {
  const payload = job.payload as DeliveryPayload;
  const webhook = context.webhooks.byName.get(payload.webhook);
  if (webhook === undefined)
    throw new AttemptFailed(null, `The webhook "${payload.webhook}" is no longer in the spec.`);
  const checked = await checkAddress(webhook.url, context.webhooks.allowPrivate);
  if (!checked.ok) throw new AttemptFailed(null, checked.reason);
  const body = JSON.stringify(payload.body);
  const messageId = payload.messageId ?? job.id;
  const sentAt = new Date();
  const headers = {
    'content-type': 'application/json',
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new StandardWebhook(webhook.secret).sign(messageId, sentAt, body),
    'user-agent': 'Ninefold-Webhooks',
  };
  const timeoutMs = context.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  let answer: PostAnswer;
  try {
    answer = await postTo(webhook.url, checked.address, headers, body, AbortSignal.any([signal, timeout]));
  } catch (error) {
    if (timeout.aborted) throw new AttemptFailed(null, `The receiver did not answer within ${timeoutMs} ms.`);
    if (signal.aborted) throw new AttemptFailed(null, `The attempt was stopped: ${reasonOf(signal)}`);
    throw new AttemptFailed(null, `The receiver could not be reached: ${describe(error)}`);
  }
  if (answer.status >= 200 && answer.status < 300) return answer;
  if (answer.status >= 300 && answer.status < 400)
    throw new AttemptFailed(
      answer.status,
      `A redirect${answer.location === null ? '' : ` to ${answer.location}`} (not followed). ${answer.text}`,
    );
  throw new AttemptFailed(answer.status, answer.text);
}

/** Keeps the delivery's log row in step with its attempt. */
async function log(
  context: DeliveryContext,
  job: Job,
  state: 'pending' | 'delivered' | 'failed',
  status: number | null,
  answer: string | null,
): Promise<void> {
  await context.database.db
    .updateTable(TABLES.webhookDeliveries)
    .set({
      state,
      attempts: job.attempts,
      last_status: status,
      last_answer: answer === null ? null : answer.slice(0, MAX_ANSWER_LENGTH),
      updated_at: context.now().toISOString(),
    })
    .where('id', '=', job.id)
    .execute();
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code} ${error.message}` : error.message;
}

function reasonOf(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : String(reason);
}
