/**
 * Three instances as one service (issue 20, "Proof at scale"): three `ninefold start` processes on
 * one PostgreSQL database of the real server, behind no proxy but the test, which sends a bounded
 * load through all three at once — creates (some sent twice, with one Idempotency-Key, to two
 * instances), reads, transitions and failed sign-ins. Afterwards: no write lost or made twice, the
 * sign-in limit held across the instances to the exact count, and every record created through any
 * instance arrived as an event on a stream held on another one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ProductInstances, freshPostgresDatabase, startInstances } from '@ninefold/testkit';

process.env['TEST_DATABASE_URL'] ??= 'postgres://postgres@127.0.0.1:5432/test';

/** Sign-in attempts a minute from one address: small, so that the burst below passes it. */
const LOGIN_LIMIT = 6;
const SPEC = `
product: { name: Notes }
entities:
  Note:
    display: title
    fields:
      title: { type: string, required: true }
states:
  Note:
    initial: draft
    states:
      draft: { label: Draft }
      done: { label: Done, terminal: true }
    transitions:
      finish: { from: draft, to: done, roles: [writer] }
roles:
  writer: { Note: { read: true, create: true, update: true } }
limits:
  loginAttemptsPerMinute: ${LOGIN_LIMIT}
  requestsPerMinute: { default: 100000, guest: 100000 }
`;
const EMAIL = 'writer@example.com';
const PASSWORD = 'a long and unguessable passphrase';
const CSRF = { 'x-ninefold-csrf': '1' };

const folder = mkdtempSync(join(tmpdir(), 'ninefold-instances-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  rmSync(folder, { recursive: true, force: true });
});

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Headers;
}

/** One request to one instance. */
async function call(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; cookie?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await fetch(`${base}/api/${path}`, {
    method,
    headers: {
      ...CSRF,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.cookie === undefined ? {} : { cookie: options.cookie }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    headers: response.headers,
  };
}

/** The record events of a stream held open on one instance, as they arrive. */
function holdStream(base: string, cookie: string) {
  const created = new Set<string>();
  let buffer = '';
  const url = new URL(`${base}/api/events`);
  const req = request(url, { headers: { cookie, accept: 'text/event-stream' } });
  const opened = new Promise<number>((resolve, reject) => {
    req.on('response', (response) => {
      resolve(response.statusCode ?? 0);
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = frame.split('\n');
          const data = lines.find((line) => line.startsWith('data:'));
          if (lines.includes('event: record') && data !== undefined) {
            const event = JSON.parse(data.slice(5)) as { id: string; kind: string };
            if (event.kind === 'created') created.add(event.id);
          }
          end = buffer.indexOf('\n\n');
        }
      });
      response.on('error', () => undefined);
    });
    req.on('error', reject);
  });
  req.end();
  return { opened, created, close: () => req.destroy() };
}

/** Waits until `check` holds, or fails after `ms`. */
async function until(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('three instances on one PostgreSQL', () => {
  it('lose and double no write, hold the sign-in limit to the count, and stream every create to another instance', async () => {
    const database = await freshPostgresDatabase();
    cleanups.push(() => database.drop());
    const spec = join(folder, 'notes.yaml');
    writeFileSync(spec, SPEC);
    const service: ProductInstances = await startInstances({
      spec,
      count: 3,
      store: database,
      // the test is the proxy: each burst of sign-ins comes from an address of its own
      args: ['--trust-proxy', '127.0.0.1'],
    });
    cleanups.push(() => service.stop());
    await service.ninefold([
      'users',
      'add',
      '--spec',
      spec,
      '--email',
      EMAIL,
      '--name',
      'Wendy Writer',
      '--roles',
      'writer',
      '--password',
      PASSWORD,
    ]);
    const urls = service.instances.map((instance) => instance.url);
    expect(urls).toHaveLength(3);

    // one session, signed in through the first instance, serves on all three
    const signedIn = await call(urls[0]!, 'POST', 'session', {
      body: { email: EMAIL, password: PASSWORD },
      headers: { 'x-forwarded-for': '198.51.100.1' },
    });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const stream = holdStream(urls[2]!, cookie);
    cleanups.push(async () => {
      stream.close();
    });
    expect(await stream.opened).toBe(200);

    // the load: through the three at once
    const CREATES = 60;
    const creates = Array.from({ length: CREATES }, (_, i) =>
      call(urls[i % 3]!, 'POST', 'notes', { body: { title: `note ${i}` }, cookie }),
    );
    // the same create sent twice with one key, to two instances at once: made once
    const KEYED = 10;
    const keyed = Array.from({ length: KEYED }, (_, i) => {
      const key = `proof-${i}-${Math.random()}`;
      const once = (at: number) =>
        call(urls[at]!, 'POST', 'notes', {
          body: { title: `keyed ${i}` },
          cookie,
          headers: { 'idempotency-key': key },
        });
      return Promise.all([once(i % 3), once((i + 1) % 3)]);
    });
    // sign-in failures from one address, spread over the three, with accounts nobody has
    const attempts = Array.from({ length: LOGIN_LIMIT * 3 }, (_, i) =>
      call(urls[i % 3]!, 'POST', 'session', {
        body: { email: `nobody-${i}@example.com`, password: 'wrong password' },
        headers: { 'x-forwarded-for': '203.0.113.9' },
      }),
    );
    const reads = Array.from({ length: 30 }, (_, i) => call(urls[i % 3]!, 'GET', 'notes', { cookie }));
    const [made, pairs, tried, listed] = await Promise.all([
      Promise.all(creates),
      Promise.all(keyed),
      Promise.all(attempts),
      Promise.all(reads),
    ]);

    expect(made.map((a) => a.status)).toEqual(Array(CREATES).fill(201));
    for (const [first, second] of pairs) {
      expect([first.status, second.status].every((s) => s === 200 || s === 201)).toBe(true);
      expect(first.body['id']).toBe(second.body['id']);
      // one was done, the other answered with its outcome
      const replayed = [first, second].filter((a) => a.headers.get('idempotent-replayed') === 'true');
      expect(replayed).toHaveLength(1);
    }
    expect(listed.every((a) => a.status === 200)).toBe(true);
    // the limit held across the instances to the exact count: the rest were refused unchecked
    const statuses = tried.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(LOGIN_LIMIT * 2);

    // transitions through the instances, each once
    const ids = [...made, ...pairs.map(([first]) => first)].map((a) => String(a.body['id']));
    const finished = await Promise.all(
      ids.map((id, i) =>
        call(urls[(i + 1) % 3]!, 'POST', `notes/${id}/transitions/finish`, {
          cookie,
          headers: { 'if-match': '"1"' },
        }),
      ),
    );
    expect(finished.map((a) => a.status)).toEqual(Array(ids.length).fill(200));

    // nothing lost, nothing twice: every answered id is there once, finished once
    const all: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    do {
      const page: Answer = await call(
        urls[1]!,
        'GET',
        `notes?limit=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
        { cookie },
      );
      expect(page.status).toBe(200);
      all.push(...(page.body['data'] as Record<string, unknown>[]));
      cursor = (page.body['nextCursor'] as string | null | undefined) ?? null;
    } while (cursor !== null);
    expect(all.map((r) => r['id']).sort()).toEqual([...new Set(ids)].sort());
    expect(all.every((r) => r['state'] === 'done' && r['version'] === 2)).toBe(true);

    // every create, through any of the three, reached the stream held on the third
    await until(() => ids.every((id) => stream.created.has(id)), 5_000);
    expect(ids.filter((id) => !stream.created.has(id))).toEqual([]);
  });
});
