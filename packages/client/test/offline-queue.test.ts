/**
 * The offline queue against the real server in-process: a write that cannot reach the server is
 * kept under its user and replayed in order with its Idempotency-Key — once, however often it is
 * sent — and a write the server refuses leaves the line with its catalogue problem, never silently.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  type Http,
  NetworkError,
  WriteQueued,
  createHttp,
  newIdempotencyKey,
} from '../src/api/http';
import { type QueuedWrite, enqueue, isWaiting, queueKey, readQueue } from '../src/offline/queue';
import { replayQueue, startReplayer } from '../src/offline/replay';
import { sendOrQueue } from '../src/offline/send';
import { type World, injectFetch, world } from './harness';

const CLAIM = { title: 'Taxi to the airport', category: 'travel', amount: '12.00', spentOn: '2026-02-27' };

afterEach(() => localStorage.clear());

describe('the offline queue', () => {
  let w: World;
  let ann: { id: string; cookie: string };
  beforeAll(async () => {
    w = await world('expense-claims.md');
    ann = await w.user('ann', ['employee']);
    await w.user('bob', ['employee']);
  });

  /**
   * Ann's API client over a network the test switches off (requests fail before reaching the server)
   * or makes lose the answers to writes (the server does the write, the answer never comes back).
   */
  function annOnline(as = 'ann') {
    const jar = { cookie: w.users[as]?.cookie };
    const inner = injectFetch(w.server, jar);
    const net = { offline: false, loseAnswers: false, sent: [] as { method: string; key: string | null }[] };
    const fetch: typeof globalThis.fetch = async (input, init = {}) => {
      if (net.offline) throw new TypeError('Failed to fetch');
      net.sent.push({ method: init.method ?? 'GET', key: new Headers(init.headers).get('idempotency-key') });
      const response = await inner(input, init);
      if (net.loseAnswers && (init.method ?? 'GET') !== 'GET') throw new TypeError('Failed to fetch');
      return response;
    };
    const http: Http = createHttp({ calls: w.model.calls, fetch, sleep: async () => undefined });
    return { http, net, jar };
  }

  const key = () => queueKey(w.model, ann.id);
  const create = (body: Record<string, string> = CLAIM): QueuedWrite => ({
    key: newIdempotencyKey(),
    kind: 'create',
    entity: 'Claim',
    recordId: null,
    method: 'POST',
    path: 'claims',
    body,
    title: body['title'] ?? '',
    at: new Date().toISOString(),
  });
  const update = (id: string, version: number, body: Record<string, string>): QueuedWrite => ({
    key: newIdempotencyKey(),
    kind: 'update',
    entity: 'Claim',
    recordId: id,
    method: 'PATCH',
    path: `claims/${id}`,
    body,
    version,
    title: '',
    at: new Date().toISOString(),
  });
  const claimsTitled = async (title: string) =>
    ((await w.api('ann', 'GET', `/api/claims?limit=100`)).body['data'] as { title: string }[]).filter(
      (c) => c.title === title,
    ).length;
  const newClaim = async (title: string) => {
    const made = await w.api('ann', 'POST', '/api/claims', { ...CLAIM, title });
    return { id: String(made.body['id']), version: Number(made.body['version']) };
  };

  it('keeps a write that cannot reach the server, and sends it once when the connection returns', async () => {
    const { http, net } = annOnline();
    net.offline = true;
    const write = create({ ...CLAIM, title: 'Queued while offline' });
    const queued = await sendOrQueue(http, w.model, ann.id, write).catch((e: unknown) => e);
    expect(queued).toBeInstanceOf(WriteQueued);
    expect(readQueue(key()).map((q) => q.key)).toEqual([write.key]);
    expect(await claimsTitled('Queued while offline')).toBe(0);

    net.offline = false;
    expect(await replayQueue({ http, key: key(), userId: ann.id })).toBe('done');
    expect(readQueue(key())).toEqual([]);
    expect(await claimsTitled('Queued while offline')).toBe(1);
    // sent with the key it was queued with
    expect(net.sent.filter((s) => s.method === 'POST').map((s) => s.key)).toEqual([write.key]);
  });

  it('makes one record of a replay whose answer was lost, sent again with its key', async () => {
    const { http, net } = annOnline();
    enqueue(key(), create({ ...CLAIM, title: 'Answer lost on replay' }));
    net.loseAnswers = true;
    // every attempt of the replay reached the server, and every answer was lost: the write stays
    expect(await replayQueue({ http, key: key(), userId: ann.id })).toBe('unreachable');
    expect(readQueue(key())).toHaveLength(1);
    expect(await claimsTitled('Answer lost on replay')).toBe(1);

    net.loseAnswers = false;
    expect(await replayQueue({ http, key: key(), userId: ann.id })).toBe('done');
    expect(readQueue(key())).toEqual([]);
    expect(await claimsTitled('Answer lost on replay')).toBe(1);
    expect(new Set(net.sent.filter((s) => s.method === 'POST').map((s) => s.key)).size).toBe(1);
  });

  it('queues a write behind the ones waiting, even online, and sends them in order', async () => {
    const { http, net } = annOnline();
    const claim = await newClaim('Order');
    net.offline = true;
    await expect(
      sendOrQueue(http, w.model, ann.id, update(claim.id, claim.version, { title: 'Order 2' })),
    ).rejects.toBeInstanceOf(WriteQueued);
    net.offline = false;
    // online again, but the first change has not been sent: the second must not overtake it
    await expect(
      sendOrQueue(http, w.model, ann.id, update(claim.id, claim.version, { title: 'Order 3' })),
    ).rejects.toBeInstanceOf(WriteQueued);
    expect(net.sent.filter((s) => s.method === 'PATCH')).toHaveLength(0);

    expect(await replayQueue({ http, key: key(), userId: ann.id })).toBe('done');
    const now = await w.api('ann', 'GET', `/api/claims/${claim.id}`);
    // the second change was made on top of the first, as the user saw it: no conflict with it
    expect(now.body).toMatchObject({ title: 'Order 3', version: claim.version + 2 });
    expect(readQueue(key())).toEqual([]);
  });

  it('takes a write the server refuses out of the line, with its catalogue problem, and sends the next', async () => {
    const { http } = annOnline();
    const claim = await newClaim('Stale');
    // changed elsewhere meanwhile: the queued change is based on a version that is gone
    await w.api(
      'ann',
      'PATCH',
      `/api/claims/${claim.id}`,
      { merchant: 'Elsewhere' },
      { 'if-match': `"${claim.version}"` },
    );
    const stale = update(claim.id, claim.version, { title: 'Stale change' });
    const invalid = create({ ...CLAIM, title: 'x'.repeat(500) });
    const fine = create({ ...CLAIM, title: 'After the refused ones' });
    for (const write of [stale, invalid, fine]) enqueue(key(), write);

    expect(await replayQueue({ http, key: key(), userId: ann.id })).toBe('done');
    const left = readQueue(key());
    expect(left.map((q) => [q.key, q.problem?.code])).toEqual([
      [stale.key, 'E_CONFLICT'],
      [invalid.key, 'E_VALIDATION'],
    ]);
    expect(left[1]?.problem?.errors?.map((e) => [e.field, e.code])).toEqual([['title', 'E_TOO_LONG']]);
    expect(left.some(isWaiting)).toBe(false);
    expect(await claimsTitled('After the refused ones')).toBe(1);
    expect((await w.api('ann', 'GET', `/api/claims/${claim.id}`)).body['title']).toBe('Stale');
    // a refused write waits for the user, not the network: the next replay leaves it alone
    expect(await replayQueue({ http, key: key(), userId: ann.id })).toBe('done');
    expect(readQueue(key())).toHaveLength(2);
  });

  it('stops at an ended session, keeping the write, and sends it once the user is signed in again', async () => {
    const { http, jar } = annOnline();
    const write = create({ ...CLAIM, title: 'Sent after signing in again' });
    enqueue(key(), write);
    jar.cookie = undefined;
    expect(await replayQueue({ http, key: key(), userId: ann.id })).toBe('signed-out');
    expect(readQueue(key())).toEqual([write]);

    jar.cookie = ann.cookie;
    expect(await replayQueue({ http, key: key(), userId: ann.id })).toBe('done');
    expect(await claimsTitled('Sent after signing in again')).toBe(1);
  });

  it('tries again on its own, backing off, while the server cannot be reached', async () => {
    const { http, net } = annOnline();
    enqueue(key(), create({ ...CLAIM, title: 'Sent by a retry' }));
    net.offline = true;
    const outcomes: string[] = [];
    const replayer = startReplayer({
      http,
      key: key(),
      userId: ann.id,
      firstRetryMs: 20,
      maxRetryMs: 40,
      onOutcome: (outcome) => outcomes.push(outcome),
    });
    try {
      await vi.waitFor(() => expect(outcomes.filter((o) => o === 'unreachable').length).toBeGreaterThan(2));
      expect(readQueue(key())).toHaveLength(1);
      // back, with no `online` event to say so: the next retry finds out
      net.offline = false;
      await vi.waitFor(() => expect(readQueue(key())).toEqual([]));
      expect(outcomes.at(-1)).toBe('done');
      expect(await claimsTitled('Sent by a retry')).toBe(1);
    } finally {
      replayer.stop();
    }
  });

  it('keeps a write when the server says "not now" (503), to try again later', async () => {
    const jar = { cookie: ann.cookie };
    const inner = injectFetch(w.server, jar);
    let unavailable = true;
    const http = createHttp({
      calls: w.model.calls,
      fetch: async (input, init) =>
        unavailable
          ? new Response(JSON.stringify({ status: 503, code: 'E_UNAVAILABLE', message: 'Starting' }), {
              status: 503,
              headers: { 'content-type': 'application/problem+json' },
            })
          : inner(input, init),
    });
    enqueue(key(), create({ ...CLAIM, title: 'After the restart' }));
    expect(await replayQueue({ http, key: key(), userId: ann.id })).toBe('unreachable');
    expect(readQueue(key()).filter(isWaiting)).toHaveLength(1);
    unavailable = false;
    expect(await replayQueue({ http, key: key(), userId: ann.id })).toBe('done');
    expect(await claimsTitled('After the restart')).toBe(1);
  });

  it('keeps each user’s writes apart: another user’s queue never holds them', async () => {
    const { http, net } = annOnline();
    net.offline = true;
    await expect(
      sendOrQueue(http, w.model, ann.id, create({ ...CLAIM, title: 'Ann’s, offline' })),
    ).rejects.toBeInstanceOf(WriteQueued);
    const bob = annOnline('bob');
    const bobId = w.users['bob']!.id;
    expect(await replayQueue({ http: bob.http, key: queueKey(w.model, bobId), userId: bobId })).toBe('done');
    expect(bob.net.sent).toHaveLength(0);
    expect(readQueue(key())).toHaveLength(1);
  });

  it('sends nothing when the browser’s session has become another user’s (signed in from another tab)', async () => {
    const { http, jar } = annOnline();
    enqueue(key(), create({ ...CLAIM, title: 'Never as Bob' }));
    jar.cookie = w.users['bob']!.cookie;
    expect(await replayQueue({ http, key: key(), userId: ann.id })).toBe('signed-out');
    expect(readQueue(key()).filter(isWaiting)).toHaveLength(1);
    expect((await w.api('bob', 'GET', '/api/claims?limit=100')).body['data']).toEqual([]);
    // and the app's own word that the user signed out stops it too
    jar.cookie = ann.cookie;
    expect(await replayQueue({ http, key: key(), userId: ann.id, signedIn: () => false })).toBe('signed-out');
    expect(await claimsTitled('Never as Bob')).toBe(0);
  });

  it('fails with E_NETWORK as before when the spec turns the queue off, or the browser will not store it', async () => {
    const { http, net } = annOnline();
    net.offline = true;
    const off = { ...w.model, calls: { ...w.model.calls, offlineQueue: false } };
    await expect(sendOrQueue(http, off, ann.id, create())).rejects.toBeInstanceOf(NetworkError);
    expect(readQueue(key())).toEqual([]);

    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    try {
      await expect(sendOrQueue(http, w.model, ann.id, create())).rejects.toBeInstanceOf(NetworkError);
    } finally {
      Storage.prototype.setItem = setItem;
    }
    expect(readQueue(key())).toEqual([]);
  });

  it('passes a refusal straight to the caller when online: only the network queues', async () => {
    const { http } = annOnline();
    const refused = await sendOrQueue(http, w.model, ann.id, create({ ...CLAIM, title: '' })).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect(readQueue(key())).toEqual([]);
  });
});
