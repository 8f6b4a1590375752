/**
 * `Idempotency-Key` on every database: a write sent again with its key is done once and answers
 * the first outcome; the same key with another write is refused; keys are their user's own; racing
 * repeats make one record; a write that failed took no key.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HOURS, keepOutcome, keptOutcome } from '../src/http/idempotency.js';
import { DIALECTS, problem } from '@ninefold/testkit';
import { type Client, type Json, type World, body, exampleWorld } from './world.js';

const CLAIM = { title: 'Train to Lyon', category: 'travel', amount: '20.00' };

for (const dialect of DIALECTS) {
  describe(`${dialect}: Idempotency-Key`, () => {
    let world: World;
    let ann: Client, bob: Client;
    let serial = 0;
    const newKey = () => `key-${dialect}-${(serial += 1)}-${Date.now()}`;
    const claims = () => world.count('claims');

    beforeAll(async () => {
      world = await exampleWorld(dialect, 'expense-claims.md', { ann: ['employee'], bob: ['employee'] });
      ({ ann, bob } = world.as as { ann: Client; bob: Client });
    });

    it('creates once: a repeat answers the first record, marked as a replay', async () => {
      const key = newKey();
      const before = await claims();
      const first = await ann.post('/api/claims', CLAIM, { 'idempotency-key': key });
      expect(first.statusCode, first.body).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const again = await ann.post('/api/claims', CLAIM, { 'idempotency-key': key });
      expect(again.statusCode, again.body).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.headers['location']).toBe(first.headers['location']);
      expect(body(again)['id']).toBe(body(first)['id']);
      expect(await claims()).toBe(before + 1);
    });

    it('answers a repeat with the record as it is now', async () => {
      const key = newKey();
      const created = body(await ann.post('/api/claims', CLAIM, { 'idempotency-key': key }));
      const url = `/api/claims/${String(created['id'])}`;
      const changed = await ann.patch(url, { title: 'Train to Lille' }, Number(created['version']));
      expect(changed.statusCode, changed.body).toBe(200);
      const again = body(await ann.post('/api/claims', CLAIM, { 'idempotency-key': key }));
      expect(again).toMatchObject({ id: created['id'], title: 'Train to Lille', version: 2 });
    });

    it('refuses the same key with another write, and writes nothing', async () => {
      const key = newKey();
      expect((await ann.post('/api/claims', CLAIM, { 'idempotency-key': key })).statusCode).toBe(201);
      const before = await claims();
      const other = await ann.post('/api/claims', { ...CLAIM, amount: '21.00' }, { 'idempotency-key': key });
      expect(problem(other)).toMatchObject({ status: 422, code: 'E_IDEMPOTENCY_KEY_REUSED' });
      const elsewhere = await ann.post(
        '/api/departments',
        { name: 'X', code: 'XX', costCentre: 1 },
        {
          'idempotency-key': key,
        },
      );
      expect(problem(elsewhere)).toMatchObject({ status: 422, code: 'E_IDEMPOTENCY_KEY_REUSED' });
      expect(await claims()).toBe(before);
    });

    it('keeps keys per user: another user’s equal key is a new write', async () => {
      const key = newKey();
      const mine = body(await ann.post('/api/claims', CLAIM, { 'idempotency-key': key }));
      const theirs = await bob.post('/api/claims', CLAIM, { 'idempotency-key': key });
      expect(theirs.statusCode, theirs.body).toBe(201);
      expect(theirs.headers['idempotent-replayed']).toBeUndefined();
      expect(body(theirs)['id']).not.toBe(mine['id']);
    });

    it('fires a transition once: the repeat answers it instead of refusing the second', async () => {
      const created = body(await ann.post('/api/claims', CLAIM));
      const url = `/api/claims/${String(created['id'])}`;
      const key = newKey();
      const headers = { 'if-match': '"1"', 'idempotency-key': key };
      const first = await ann.request('POST', `${url}/transitions/submit`, {}, headers);
      expect(first.statusCode, first.body).toBe(200);
      const history = await world.historyCount();
      const again = await ann.request('POST', `${url}/transitions/submit`, {}, headers);
      expect(again.statusCode, again.body).toBe(200);
      expect(body(again)).toMatchObject({ id: created['id'], state: 'submitted', version: 2 });
      expect(await world.historyCount()).toBe(history);
      // without the key, the same request is a second submit, which the state no longer allows
      const plain = await ann.fire(url, 'submit', 1);
      expect(problem(plain).status).toBe(409);
    });

    it('updates and deletes once', async () => {
      const created = body(await ann.post('/api/claims', CLAIM));
      const url = `/api/claims/${String(created['id'])}`;
      const patch = { 'if-match': '"1"', 'idempotency-key': newKey() };
      expect((await ann.request('PATCH', url, { title: 'Bus' }, patch)).statusCode).toBe(200);
      const repeated = await ann.request('PATCH', url, { title: 'Bus' }, patch);
      expect(repeated.statusCode, repeated.body).toBe(200);
      expect(body(repeated)).toMatchObject({ title: 'Bus', version: 2 });

      const remove = { 'if-match': '"2"', 'idempotency-key': newKey() };
      expect((await ann.request('DELETE', url, undefined, remove)).statusCode).toBe(204);
      const gone = await ann.request('DELETE', url, undefined, remove);
      expect(gone.statusCode).toBe(204);
      expect(gone.headers['idempotent-replayed']).toBe('true');
      expect(problem(await ann.request('DELETE', url, undefined, { 'if-match': '"2"' })).status).toBe(404);
    });

    it('takes no key for a write that failed: the corrected write may use it', async () => {
      const key = newKey();
      const bad = await ann.post('/api/claims', { ...CLAIM, amount: '-1' }, { 'idempotency-key': key });
      expect(problem(bad).status).toBe(422);
      const before = await claims();
      const retried = await ann.post('/api/claims', { ...CLAIM, amount: '-1' }, { 'idempotency-key': key });
      expect(problem(retried).status).toBe(422);
      expect(await claims()).toBe(before);
    });

    // on SQLite and PGlite one connection orders the requests; against a PostgreSQL server (CI) they
    // race, and every repeat but the first fails on the key and answers the first's outcome
    it('makes one record of repeats sent at once', async () => {
      const key = newKey();
      const before = await claims();
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => ann.post('/api/claims', CLAIM, { 'idempotency-key': key })),
      );
      expect(responses.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
      expect(new Set(responses.map((r) => (body(r) as Json)['id'])).size).toBe(1);
      expect(await claims()).toBe(before + 1);
    });

    it('refuses a key that is not 1 to 255 visible ASCII characters', async () => {
      const before = await claims();
      for (const key of ['x'.repeat(256), 'with space', 'é']) {
        const response = await ann.post('/api/claims', CLAIM, { 'idempotency-key': key });
        expect(problem(response)).toMatchObject({ status: 400, code: 'E_BAD_REQUEST' });
      }
      expect(await claims()).toBe(before);
    });

    it(`forgets a key after ${IDEMPOTENCY_KEY_HOURS} hours, and takes it again`, async () => {
      const db = world.server.database.db;
      const key = { hash: `hash-${newKey()}`, fingerprint: 'f1' };
      const start = new Date('2026-03-01T09:00:00.000Z');
      await db.transaction().execute((tx) => keepOutcome(tx, key, { status: 201, recordId: 'r1' }, start));
      const later = (hours: number) => new Date(start.getTime() + hours * 3_600_000);
      expect(await keptOutcome(db, key, later(IDEMPOTENCY_KEY_HOURS - 1))).toEqual({
        status: 201,
        recordId: 'r1',
      });
      expect(await keptOutcome(db, key, later(IDEMPOTENCY_KEY_HOURS))).toBeNull();
      const next = { ...key, fingerprint: 'f2' };
      const at = later(IDEMPOTENCY_KEY_HOURS + 1);
      await db.transaction().execute((tx) => keepOutcome(tx, next, { status: 200, recordId: 'r2' }, at));
      expect(await keptOutcome(db, next, at)).toEqual({ status: 200, recordId: 'r2' });
    });
  });
}
