/**
 * The request limit counted a slice at a time in a shared store (`limits/slices.ts`, decision
 * 0057), on the PostgreSQL server (`TEST_DATABASE_URL`; PGlite's in-process database otherwise, two
 * apps over one handle with stores of their own) and on a real Redis: one instance refuses at
 * exactly the limit with exact headers, asking the store far less than once a request; two
 * instances together never allow more than the limit, and at most a slice less one fewer; windows
 * reset; a connection the database ended, or Redis gone, never gives a 5xx.
 */
import { type Model } from '@ninefold/model';
import {
  checkedInject,
  freshDatabase,
  opensTwice,
  problem,
  reopen,
  specModel,
  startRedis,
  testClock,
  type TestRedis,
} from '@ninefold/testkit';
import { type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type CounterStore,
  type Database,
  buildApp,
  migrate,
  openRedisCounters,
  postgresCounters,
} from '../src/index.js';

/** A hundred requests a minute for a guest: slices of up to ten. */
const LIMIT = 100;
const MOST_PER_SLICE = 10;
const MODEL = specModel(`
product: { name: Claims }
entities:
  Claim:
    fields:
      title: { type: string, required: true }
roles:
  employee: { Claim: { read: true } }
limits: { requestsPerMinute: { guest: ${LIMIT} } }
`);
const GUEST = '198.51.100.20';

const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

let redis: Promise<TestRedis> | undefined;
function testRedis(): Promise<TestRedis> {
  redis ??= startRedis();
  return redis;
}

/** A store that counts how often it is asked to count (each a round trip). */
function counting(store: CounterStore): CounterStore & { readonly takes: () => number } {
  let takes = 0;
  return {
    ...store,
    remote: store.remote,
    description: store.description,
    take: (...args) => {
      takes += 1;
      return store.take(...args);
    },
    takes: () => takes,
  };
}

function getModel(app: FastifyInstance, address = GUEST) {
  return checkedInject(app, app.ninefold.model, { method: 'GET', url: '/api/model', remoteAddress: address });
}

/** `count` requests one after another, their status codes and `remaining` headers. */
async function requests(app: FastifyInstance, count: number) {
  const answers = [];
  for (let i = 0; i < count; i += 1) {
    const response = await getModel(app);
    answers.push({ status: response.statusCode, remaining: response.headers['x-ratelimit-remaining'] });
  }
  return answers;
}

type Stores = () => Promise<{
  readonly databases: readonly Database[];
  readonly stores: readonly CounterStore[];
}>;

/** Two apps (instances) over the stores, one clock. */
async function instances(model: Model, of: Stores) {
  const { databases, stores } = await of();
  await migrate(databases[0]!, model);
  const clock = testClock();
  const apps = stores.map((counters, i) =>
    buildApp({ model, database: databases[i % databases.length]!, now: clock.now, counters }),
  );
  closing.push(async () => {
    for (const app of apps) await app.close();
    for (const store of stores) await store.close();
  });
  return { apps, clock, stores };
}

function behavesAsOne(of: Stores) {
  it('alone, refuses at exactly the limit with exact headers, asking the store less than once in five requests', async () => {
    const { apps, clock, stores } = await instances(MODEL, async () => {
      const made = await of();
      return { databases: made.databases, stores: [counting(made.stores[0]!)] };
    });
    const [app] = apps;
    const answers = await requests(app!, LIMIT + 1);
    expect(answers.slice(0, LIMIT)).toEqual(
      Array.from({ length: LIMIT }, (_, i) => ({ status: 200, remaining: String(LIMIT - 1 - i) })),
    );
    expect(answers[LIMIT]).toEqual({ status: 429, remaining: '0' });
    // a slice of one, then slices of ten: far fewer round trips than requests
    const takes = (stores[0] as ReturnType<typeof counting>).takes();
    expect(takes).toBeLessThan(LIMIT / 5);
    // refused again without a round trip until the window ends, with its Retry-After
    clock.advance(20_000);
    const refused = await getModel(app!);
    expect(problem(refused).code).toBe('E_RATE_LIMITED');
    expect(refused.headers['retry-after']).toBe('40');
    expect((stores[0] as ReturnType<typeof counting>).takes()).toBe(takes);
    // a new window: the whole limit again
    clock.advance(40_000);
    const again = await requests(app!, LIMIT + 1);
    expect(again.filter((a) => a.status === 200)).toHaveLength(LIMIT);
    expect(again[0]).toEqual({ status: 200, remaining: String(LIMIT - 1) });
    expect(again[LIMIT]?.status).toBe(429);
  });

  it('two instances together allow the limit, never more, and at most a slice less one fewer', async () => {
    const { apps, clock } = await instances(MODEL, of);
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    for (let window = 0; window < 2; window += 1) {
      // both at once, as a load balancer sends them
      const answers = await Promise.all(
        Array.from({ length: 3 * LIMIT }, (_, i) => getModel(i % 2 === 0 ? a : b)),
      );
      const statuses = answers.map((r) => r.statusCode);
      const served = statuses.filter((s) => s === 200).length;
      expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
      expect(served).toBeLessThanOrEqual(LIMIT);
      expect(served).toBeGreaterThanOrEqual(LIMIT - (MOST_PER_SLICE - 1));
      // whoever refuses says when to come back: the store's window, the same on both
      const refused = answers.filter((r) => r.statusCode === 429).map((r) => r.headers['retry-after']);
      expect(new Set(refused)).toEqual(new Set(['60']));
      // and keeps refusing until the window ends
      expect(problem(await getModel(a)).code).toBe('E_RATE_LIMITED');
      expect(problem(await getModel(b)).code).toBe('E_RATE_LIMITED');
      clock.advance(60_000);
    }
  });
}

const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? '';

describe('counted in the ninefold_limits table', () => {
  behavesAsOne(async () => {
    const { database, target } = await freshDatabase('postgres');
    // on the server, a pool each; PGlite is one process's: one handle, a store each
    const second = opensTwice('postgres') ? await reopen(target) : database;
    return { databases: [database, second], stores: [postgresCounters(database), postgresCounters(second)] };
  });

  // (the server's only: PGlite has no connection to end)
  if (TEST_DATABASE_URL !== '')
    it('answers no 5xx when the database ends the store’s connections between requests', async () => {
      const { database } = await freshDatabase('postgres');
      const { apps } = await instances(MODEL, async () => ({
        databases: [database],
        stores: [postgresCounters(database)],
      }));
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 3 * LIMIT; i += 1) {
          if (i % 25 === 0) {
            // the pool's connection (only this test's: the server is shared)
            const pid = sql<{ pid: number }>`select pg_backend_pid() as pid`;
            // (the test's own look may land on the connection ended last time: once more)
            const { rows } = await pid.execute(database.db).catch(() => pid.execute(database.db));
            await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
          }
          statuses.push((await getModel(apps[0]!)).statusCode);
        }
        expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
        expect(statuses.filter((s) => s === 429)).toHaveLength(2 * LIMIT);
      } finally {
        await admin.end();
      }
    });
});

describe('counted in Redis', () => {
  behavesAsOne(async () => {
    const { database } = await freshDatabase('sqlite');
    const prefix = `test:${randomUUID()}:`;
    const { url } = await testRedis();
    return {
      databases: [database],
      stores: [await openRedisCounters(url, { prefix }), await openRedisCounters(url, { prefix })],
    };
  });

  it('answers no 5xx when Redis goes away in the middle of a slice', async () => {
    const server = await testRedis();
    const { database } = await freshDatabase('sqlite');
    const store = await openRedisCounters(server.url, { prefix: `test:${randomUUID()}:` });
    const { apps } = await instances(MODEL, async () => ({ databases: [database], stores: [store] }));
    const first = await requests(apps[0]!, 15);
    await server.stop();
    const during = await requests(apps[0]!, 2 * LIMIT);
    await server.start();
    const statuses = [...first, ...during].map((a) => a.status);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    // counted in memory meanwhile: the limit again, beside the 15 counted in Redis and what was
    // left of the slice claimed there
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(LIMIT + 15 + MOST_PER_SLICE - 1);
  });
});
