/**
 * The world of the webhook tests: a claims spec with a webhook attached by hand (as the spec
 * language will compile `webhooks:`), its server on a fresh database, a real receiver, a runner of
 * the product's jobs on the test's clock, and signed-in people who write claims and read the log.
 */
import { type Model, type RecordEvent } from '@ninefold/model';
import { expect } from 'vitest';
import {
  CSRF,
  checkedInject,
  fanningOutFirst,
  givenUser,
  login,
  specModel,
  testServer,
  type TestDialect,
} from '@ninefold/testkit';
import { TABLES, productJobHandlers } from '../src/index.js';
import { type Receiver, startReceiver } from './webhook-receiver.js';

export const SPEC = `
product: { name: Claims }
entities:
  Claim:
    fields:
      title: { type: string, required: true }
      amount: integer
roles:
  admin:
    Claim: true
    User:
      read: true
      create: true
      update: true
      delete: false
      fields: { write: [name, email, roles, disabled] }
  clerk:
    Claim: true
    User: { read: true }
states:
  Claim:
    initial: draft
    transitions:
      submit: { from: draft, to: submitted }
      pay: { from: submitted, to: paid }
      expire: { from: submitted, to: expired, after: 1d }
`;

export const HOUR = 3_600_000;

/** An event of the spec's claims: `created` or a transition's name. */
export function claimEvent(kind: string): RecordEvent {
  return kind === 'created' || kind === 'updated' || kind === 'deleted'
    ? { entity: 'Claim', kind, transition: null, name: `Claim.${kind}` }
    : { entity: 'Claim', kind: 'transition', transition: kind, name: `Claim.${kind}` };
}

/** The claims spec with one webhook, `accounting`, on the events given. */
export function hookedModel(events: readonly string[]): Model {
  return {
    ...specModel(SPEC),
    webhooks: {
      accounting: {
        name: 'accounting',
        on: events.map(claimEvent),
        url: '${HOOK_URL}',
        secret: '${HOOK_SECRET}',
      },
    },
  };
}

type Json = Record<string, unknown>;

export interface WorldOptions {
  /** The environment's variables beyond HOOK_URL and HOOK_SECRET (default: private addresses allowed). */
  readonly env?: Record<string, string>;
  /** The webhook's URL, when not the receiver's. */
  readonly url?: string;
  readonly timeoutMs?: number;
}

/**
 * A server of the claims spec with a webhook on `events`, a receiver, a runner, and two people:
 * `ada` the admin and `cal` the clerk.
 *
 * @example const world = await hookWorld('sqlite', ['created', 'pay']);
 */
export async function hookWorld(dialect: TestDialect, events: readonly string[], options: WorldOptions = {}) {
  const model = hookedModel(events);
  const server = await testServer(dialect, model);
  const receiver: Receiver = await startReceiver();
  const env = {
    HOOK_URL: options.url ?? receiver.url,
    HOOK_SECRET: receiver.secret,
    ...(options.env ?? { NINEFOLD_WEBHOOKS_ALLOW_PRIVATE: '1' }),
  };
  const handlers = productJobHandlers({
    model,
    database: server.database,
    files: server.files,
    now: server.clock.now,
    env,
    ...(options.timeoutMs === undefined ? {} : { webhookTimeoutMs: options.timeoutMs }),
  });
  // each round fans the changes out first, so a round counts notifications and deliveries
  const runner = fanningOutFirst(server, handlers);
  const ada = await givenUser(server, 'ada@example.com', ['admin']);
  const cal = await givenUser(server, 'cal@example.com', ['clerk']);

  /** A request as a person, signed in again when the test's clock has moved past the session. */
  const cookies = new Map<string, string>();
  const call = async (who: 'ada' | 'cal', method: string, url: string, payload?: Json, version?: unknown) => {
    const send = (cookie: string) =>
      checkedInject(server.app, model, {
        method: method as 'GET',
        url,
        headers: {
          ...CSRF,
          cookie,
          ...(version === undefined ? {} : { 'if-match': `"${String(version)}"` }),
        },
        ...(payload === undefined ? {} : { payload }),
      });
    const cookie = cookies.get(who);
    if (cookie !== undefined) {
      const response = await send(cookie);
      if (response.statusCode !== 401) return response;
    }
    const signedIn = (await login(server.app, `${who}@example.com`)).cookie;
    if (signedIn === undefined) throw new Error(`${who} could not sign in`);
    cookies.set(who, signedIn);
    return send(signedIn);
  };
  const ok = async (who: 'ada' | 'cal', method: string, url: string, payload?: Json, version?: unknown) => {
    const response = await call(who, method, url, payload, version);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json<Json>();
  };
  return {
    model,
    server,
    receiver,
    runner,
    env,
    ada,
    cal,
    call,
    /** A claim created by cal. */
    create: (title: string) => ok('cal', 'POST', '/api/claims', { title, amount: 12 }),
    /** A transition fired by cal; the record after it. */
    fire: (claim: Json, transition: string) =>
      ok('cal', 'POST', `/api/claims/${String(claim['id'])}/transitions/${transition}`, {}, claim['version']),
    /** The delivery log as ada sees it. */
    deliveries: async (query = '') =>
      (await ok('ada', 'GET', `/api/admin/webhook-deliveries${query}`))['data'] as Json[],
    /** The delivery jobs' rows. */
    jobs: () =>
      server.database.db.selectFrom(TABLES.jobs).selectAll().where('kind', '=', 'ninefold.webhook').execute(),
  };
}
