/**
 * Limits that hold across instances (decision 0057). On every dialect, each counter store gives the
 * answers the limits gave in memory: the request limit's headers and Retry-After, the sign-in
 * limit per address and a pair's growing delays. On the real PostgreSQL server, two apps on two
 * pools (two instances) share the sign-in limit to the exact count, concurrent attempts included,
 * and the request limit; so do two apps with clients of their own on one real Redis, which, gone
 * mid-test, leaves every limit counted in each instance's memory (no 5xx, no hang) until it is back.
 */
import { API_PATHS, DEFAULT_AUTH, type Model } from '@ninefold/model';
import {
  CSRF,
  DIALECTS,
  PASSWORD,
  checkedInject,
  freshDatabase,
  problem,
  reopen,
  specModel,
  startRedis,
  testClock,
  type TestDialect,
  type TestRedis,
} from '@ninefold/testkit';
import { type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { FREE_FAILURES } from '../src/auth/login-limiter.js';
import {
  type CounterStore,
  type Database,
  RedisUrlError,
  buildApp,
  migrate,
  openRedisCounters,
  postgresCounters,
} from '../src/index.js';

const spec = (limits: string) => `
product: { name: Claims }
entities:
  Claim:
    fields:
      title: { type: string, required: true }
roles:
  employee: { Claim: { read: true } }
limits: ${limits}
`;
/** For the sign-in limit: guests' requests are not what answers. */
const LOGIN = specModel(spec('{ loginAttemptsPerMinute: 10, requestsPerMinute: { guest: 1000 } }'));
/** For the request limit: four a minute for a guest. */
const REQUESTS = specModel(spec('{ loginAttemptsPerMinute: 3, requestsPerMinute: { guest: 4 } }'));
/** For the refused API tokens: three a minute from an address (the guests' request limit). */
const TOKENS: Model = {
  ...specModel(spec('{ requestsPerMinute: { guest: 3, default: 600 } }')),
  auth: { ...DEFAULT_AUTH, tokens: ['employee'] },
};
const ATTACKER = '203.0.113.66';
const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? '';

const stores: CounterStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
});

let redis: Promise<TestRedis> | undefined;
/** The tests' Redis, started once for the file (two instances asking at once get the same). */
function testRedis(): Promise<TestRedis> {
  redis ??= startRedis();
  return redis;
}

/** A store of the tests' Redis under a prefix of its own: two stores of one prefix are two instances. */
async function redisStore(prefix: string, warn?: (line: string) => void): Promise<CounterStore> {
  const store = await openRedisCounters((await testRedis()).url, { prefix, ...(warn ? { warn } : {}) });
  stores.push(store);
  return store;
}

function signIn(app: FastifyInstance, address: string, email: string, password: string) {
  return checkedInject(app, app.ninefold.model, {
    method: 'POST',
    url: `/api/${API_PATHS.session}`,
    remoteAddress: address,
    headers: CSRF,
    payload: { email, password },
  });
}

function getModel(app: FastifyInstance, address = '198.51.100.20') {
  return checkedInject(app, app.ninefold.model, { method: 'GET', url: '/api/model', remoteAddress: address });
}

/** The stores a dialect's app can count in: its default, and the others it can be given. */
function storesOf(dialect: TestDialect) {
  const stores: [string, (database: Database) => Promise<CounterStore | undefined>][] = [
    ['the database’s default store', async () => undefined],
    ['Redis', async () => redisStore(`test:${randomUUID()}:`)],
  ];
  if (dialect === 'postgres')
    stores.push(['the ninefold_limits table', async (database) => postgresCounters(database)]);
  return stores;
}

for (const dialect of DIALECTS) {
  for (const [name, storeOf] of storesOf(dialect)) {
    describe(`${dialect}, counted in ${name}: the limits’ answers`, () => {
      async function server(model: Model) {
        const { database } = await freshDatabase(dialect);
        await migrate(database, model);
        const counters = await storeOf(database);
        const clock = testClock();
        const app = buildApp({ model, database, now: clock.now, ...(counters ? { counters } : {}) });
        return { app, clock, database };
      }

      it('limits requests per minute with the same headers and Retry-After', async () => {
        const { app, clock } = await server(REQUESTS);
        try {
          const allowed = [];
          for (let i = 0; i < 4; i += 1) allowed.push(await getModel(app));
          expect(allowed.map((r) => [r.statusCode, r.headers['x-ratelimit-remaining']])).toEqual([
            [200, '3'],
            [200, '2'],
            [200, '1'],
            [200, '0'],
          ]);
          expect(allowed[0]?.headers['x-ratelimit-reset']).toBe('60');
          clock.advance(15_000);
          const refused = await getModel(app);
          expect(problem(refused)).toMatchObject({ status: 429, code: 'E_RATE_LIMITED' });
          expect(refused.headers['retry-after']).toBe('45');
          expect(refused.headers['x-ratelimit-remaining']).toBe('0');
          clock.advance(45_000);
          const again = await getModel(app);
          expect([again.statusCode, again.headers['x-ratelimit-remaining']]).toEqual([200, '3']);
        } finally {
          await app.close();
        }
      });

      it('limits sign-in attempts per address and delays a failing pair', async () => {
        const { app, clock } = await server(LOGIN);
        try {
          for (let i = 0; i < 10; i += 1)
            expect((await signIn(app, ATTACKER, `user${i}@example.com`, 'wrong')).statusCode).toBe(401);
          const limited = await signIn(app, ATTACKER, 'user0@example.com', 'wrong');
          expect(problem(limited).code).toBe('E_RATE_LIMITED');
          expect(limited.headers['retry-after']).toBe('60');
          // a pair's free failures (an unknown account counts as a known one), then waits of 1 s,
          // 2 s, 4 s after each further one
          clock.advance(60_000);
          for (let i = 0; i < FREE_FAILURES; i += 1)
            expect((await signIn(app, ATTACKER, 'ann@example.com', 'wrong')).statusCode).toBe(401);
          const waits: number[] = [];
          for (let i = 0; i < 3; i += 1) {
            clock.advance(61_000 + (waits.at(-1) ?? 0) * 1000);
            expect((await signIn(app, ATTACKER, 'ann@example.com', 'wrong')).statusCode).toBe(401);
            const refused = await signIn(app, ATTACKER, 'ann@example.com', PASSWORD);
            expect(problem(refused).code).toBe('E_RATE_LIMITED');
            waits.push(Number(refused.headers['retry-after']));
          }
          expect(waits).toEqual([1, 2, 4]);
        } finally {
          await app.close();
        }
      });
    });
  }
}

/** Two instances of one product: two apps, each over a database handle (a pool) and counters of its own. */
type Instances = (model: Model) => Promise<{ readonly a: FastifyInstance; readonly b: FastifyInstance }>;

function sharedBetweenInstances(instances: Instances) {
  it('shares the sign-in limit per address to the exact count, attempts at once included', async () => {
    const { a, b } = await instances(LOGIN);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        signIn(i % 2 === 0 ? a : b, ATTACKER, `user${i}@example.com`, 'wrong'),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    // and every later one, through either instance
    expect(problem(await signIn(a, ATTACKER, 'user0@example.com', 'wrong')).code).toBe('E_RATE_LIMITED');
    expect(problem(await signIn(b, ATTACKER, 'user0@example.com', 'wrong')).code).toBe('E_RATE_LIMITED');
  });

  it('shares a failing pair’s delay', async () => {
    const { a, b } = await instances(LOGIN);
    for (let i = 0; i < FREE_FAILURES; i += 1)
      expect((await signIn(a, ATTACKER, 'ann@example.com', 'wrong')).statusCode).toBe(401);
    expect((await signIn(b, ATTACKER, 'ann@example.com', 'wrong')).statusCode).toBe(401);
    const held = await signIn(a, ATTACKER, 'ann@example.com', PASSWORD);
    expect(problem(held).code).toBe('E_RATE_LIMITED');
    expect(held.headers['retry-after']).toBe('1');
  });

  it('shares the count of refused API tokens by address', async () => {
    const { a, b } = await instances(TOKENS);
    const guess = (app: FastifyInstance, n: number) =>
      checkedInject(app, app.ninefold.model, {
        method: 'GET',
        url: '/api/claims',
        remoteAddress: ATTACKER,
        headers: { authorization: `Bearer nf_${'x'.repeat(39)}${1000 + n}` },
      });
    const codes = [];
    for (const [n, app] of [a, b, a].entries()) codes.push(problem(await guess(app, n)).code);
    expect(codes).toEqual(['E_UNAUTHENTICATED', 'E_UNAUTHENTICATED', 'E_UNAUTHENTICATED']);
    // three refusals in all: both instances refuse the address now, without a lookup
    for (const app of [b, a]) {
      const limited = await guess(app, 9);
      expect(problem(limited).code).toBe('E_RATE_LIMITED');
      expect(limited.headers['retry-after']).toBe('60');
    }
  });

  it('shares the request limit', async () => {
    const { a, b } = await instances(REQUESTS);
    const allowed = [await getModel(a), await getModel(b), await getModel(a), await getModel(b)];
    expect(allowed.map((r) => [r.statusCode, r.headers['x-ratelimit-remaining']])).toEqual([
      [200, '3'],
      [200, '2'],
      [200, '1'],
      [200, '0'],
    ]);
    expect(problem(await getModel(a)).code).toBe('E_RATE_LIMITED');
    expect(problem(await getModel(b)).code).toBe('E_RATE_LIMITED');
  });
}

/** Two apps on two handles of one fresh database of a dialect, with one clock. */
async function twoApps(
  dialect: TestDialect,
  model: Model,
  counters: () => Promise<CounterStore | undefined>,
) {
  const { database, target } = await freshDatabase(dialect);
  await migrate(database, model);
  const second = await reopen(target);
  const clock = testClock();
  const apps = await Promise.all(
    [database, second].map(async (handle) => {
      const store = await counters();
      const app = buildApp({
        model,
        database: handle,
        now: clock.now,
        ...(store ? { counters: store } : {}),
      });
      return app;
    }),
  );
  afterAllClose(apps);
  return { a: apps[0]!, b: apps[1]! };
}

const apps: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});
function afterAllClose(made: readonly FastifyInstance[]) {
  apps.push(...made);
}

if (TEST_DATABASE_URL !== '') {
  describe('two instances on the real PostgreSQL server (the ninefold_limits table, by default)', () => {
    sharedBetweenInstances((model) => twoApps('postgres', model, async () => undefined));
  });
}

describe('two instances on one real Redis', () => {
  sharedBetweenInstances(async (model) => {
    const prefix = `test:${randomUUID()}:`;
    return twoApps('sqlite', model, () => redisStore(prefix));
  });

  it('counts in each instance’s memory while Redis is gone, says so once, and in Redis again once it is back', async () => {
    const server = await testRedis();
    const warnings: string[] = [];
    const prefix = `test:${randomUUID()}:`;
    const { a, b } = await twoApps('sqlite', REQUESTS, () =>
      redisStore(prefix, (line) => warnings.push(line)),
    );
    expect((await getModel(a)).headers['x-ratelimit-remaining']).toBe('3');
    await server.stop();
    // no 5xx and no wait: each instance counts the guest's four requests in its own memory
    for (const app of [a, b]) {
      const answers = [];
      for (let i = 0; i < 5; i += 1) answers.push(await getModel(app));
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 429]);
    }
    // and the sign-in limit: three attempts a minute from one address
    for (let i = 0; i < 3; i += 1)
      expect((await signIn(a, ATTACKER, `user${i}@example.com`, 'wrong')).statusCode).toBe(401);
    const limited = await signIn(a, ATTACKER, 'user0@example.com', 'wrong');
    expect(problem(limited).code).toBe('E_RATE_LIMITED');
    expect(limited.headers['retry-after']).toBe('60');
    const gone = warnings.filter((line) => line.includes('cannot be used'));
    // one line per instance for the whole outage, naming Redis without a password
    expect(gone).toHaveLength(2);
    expect(gone[0]).toContain(`Redis at ${server.url}`);
    await server.start();
    // the client reconnects by itself; the first count that reaches Redis says so (a new address
    // each time: an address refused while counted in memory is refused until its window ends)
    let address = 100;
    await vi.waitFor(
      async () => {
        await getModel(a, `198.51.100.${(address += 1)}`);
        expect(warnings.some((line) => line.includes('answers again'))).toBe(true);
      },
      { timeout: 10_000, interval: 100 },
    );
    // the restarted Redis is empty: the guest's count starts again there, shared by both
    expect((await getModel(b, '198.51.100.21')).headers['x-ratelimit-remaining']).toBe('3');
  });

  it('refuses a REDIS_URL it cannot use with one line that never repeats the password', async () => {
    const unreachable = openRedisCounters(`redis://user:s3cret-pass@127.0.0.1:1/0`);
    await expect(unreachable).rejects.toThrow(RedisUrlError);
    await expect(unreachable).rejects.toThrow(
      /^REDIS_URL names redis:\/\/127\.0\.0\.1:1\/0, which cannot be used: /,
    );
    await expect(unreachable).rejects.not.toThrow(/s3cret/);
    await expect(openRedisCounters('http://cache:6379')).rejects.toThrow(
      'REDIS_URL has the scheme "http": expected redis://[user:password@]host[:port][/database] or rediss://… for TLS.',
    );
    await expect(openRedisCounters('redis://:s3cret@cache:6379/main')).rejects.toThrow(
      'REDIS_URL names the database "main": expected a number (redis://host:6379/0).',
    );
  });
});
