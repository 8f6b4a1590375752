/**
 * The API client against the real server in-process: a write whose answer is lost on the way back
 * is sent again with its Idempotency-Key and done once; reads and writes give up after
 * `calls.retries` repeats; each write has a key of its own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { NetworkError, createHttp, newIdempotencyKey } from '../src/api/http';
import { type World, injectFetch, world } from './harness';

const CLAIM = { title: 'Taxi to the airport', category: 'travel', amount: '12.00', spentOn: '2026-02-27' };

describe('the API client', () => {
  let w: World;
  beforeAll(async () => {
    w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
  });

  /** A fetch to the server that loses the answers to the requests `lose` picks, after they were served. */
  function flakyFetch(lose: (attempt: number, init: RequestInit) => boolean) {
    const jar = { cookie: w.users['ann']?.cookie };
    const inner = injectFetch(w.server, jar);
    const sent: { key: string | null; method: string }[] = [];
    const fetch: typeof globalThis.fetch = async (input, init = {}) => {
      const key = new Headers(init.headers).get('idempotency-key');
      sent.push({ key, method: init.method ?? 'GET' });
      const response = await inner(input, init);
      if (lose(sent.length, init)) throw new TypeError('Failed to fetch');
      return response;
    };
    return { fetch, sent };
  }

  const countClaims = async () =>
    ((await w.api('ann', 'GET', '/api/claims?total=true&limit=1')).body['total'] as number) ?? -1;

  it('sends a write again with its key when the answer is lost, and the server does it once', async () => {
    const before = await countClaims();
    const { fetch, sent } = flakyFetch((attempt) => attempt === 1);
    const http = createHttp({ calls: { ...w.model.calls, retries: 2 }, fetch, sleep: async () => undefined });
    const created = await http.request<Record<string, unknown>>('POST', 'claims', { body: CLAIM });
    expect(created['title']).toBe(CLAIM.title);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(sent[1]?.key).toBe(sent[0]?.key);
    expect(await countClaims()).toBe(before + 1);
  });

  it('gives each write a key of its own, and none to a read', async () => {
    const { fetch, sent } = flakyFetch(() => false);
    const http = createHttp({ calls: w.model.calls, fetch });
    await http.request('POST', 'claims', { body: CLAIM });
    await http.request('POST', 'claims', { body: CLAIM });
    await http.get('claims');
    expect(sent.map((s) => s.method)).toEqual(['POST', 'POST', 'GET']);
    expect(sent[0]?.key).not.toBe(sent[1]?.key);
    expect(sent[2]?.key).toBeNull();
  });

  it('gives up after calls.retries repeats with a network error', async () => {
    const { fetch, sent } = flakyFetch(() => true);
    const http = createHttp({ calls: { ...w.model.calls, retries: 2 }, fetch, sleep: async () => undefined });
    const before = await countClaims();
    await expect(http.request('POST', 'claims', { body: CLAIM })).rejects.toBeInstanceOf(NetworkError);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.key)).size).toBe(1);
    // every attempt reached the server; the key made them one claim
    expect(await countClaims()).toBe(before + 1);
  });

  it('makes keys that differ', () => {
    const keys = new Set(Array.from({ length: 1000 }, newIdempotencyKey));
    expect(keys.size).toBe(1000);
  });
});
