/**
 * Writes sent at the same time, on every database. Two repeats of one write with one
 * `Idempotency-Key` do it once and both answer its outcome — never a false "someone else changed
 * this record" for the repeat that lost the race. Two different writes of one version of a record,
 * without keys, still make one change and one honest E_CONFLICT.
 *
 * Each test sends its two requests together (`Promise.all`); against a PostgreSQL server they
 * overlap on the pool's connections, on SQLite their reads interleave with each other's transaction.
 */
import { type FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKey, keepOutcome } from '../src/http/idempotency.js';
import { tableName } from '../src/index.js';
import { DIALECTS, problem } from '@ninefold/testkit';
import { type Client, type World, body, exampleWorld } from './world.js';

const CLAIM = { title: 'Train to Lyon', category: 'travel', amount: '20.00' };

for (const dialect of DIALECTS) {
  describe(`${dialect}: writes sent at the same time`, () => {
    let world: World;
    let ann: Client;
    let serial = 0;
    const newKey = () => `race-${dialect}-${(serial += 1)}-${Date.now()}`;

    /** The history entries of one record, oldest first. */
    const historyOf = async (id: unknown) => {
      const rows = await sql<{ action: string }>`
        select action from ninefold_history where record_id = ${String(id)} order by at, id
      `.execute(world.server.database.db);
      return rows.rows.map((r) => r.action);
    };
    const newClaim = async () => {
      const created = body(await ann.post('/api/claims', CLAIM));
      return { id: created['id'], url: `/api/claims/${String(created['id'])}` };
    };
    /** The key a request is sent with, as the server takes it. */
    const keyOf = (method: string, url: string, headers: Record<string, string>, payload: unknown) => {
      const asSent = { method, url, headers, body: payload } as unknown as FastifyRequest;
      const key = idempotencyKey(asSent, ann.id);
      if (key === null) throw new Error('the request has no key');
      return key;
    };
    const twice = (send: () => ReturnType<Client['request']>) => Promise.all([send(), send()]);

    beforeAll(async () => {
      world = await exampleWorld(dialect, 'expense-claims.md', { ann: ['employee'] });
      ann = world.as['ann'] as Client;
    }, 60_000);

    it('changes once for two repeats of a PATCH, and both answer the change', async () => {
      const { id, url } = await newClaim();
      const headers = { 'if-match': '"1"', 'idempotency-key': newKey() };
      const answers = await twice(() => ann.request('PATCH', url, { title: 'Bus to Lyon' }, headers));
      for (const answer of answers) {
        expect(answer.statusCode, answer.body).toBe(200);
        expect(body(answer)).toMatchObject({ id, title: 'Bus to Lyon', version: 2 });
      }
      expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(1);
      expect(await historyOf(id)).toEqual(['create', 'update']);
    });

    it('fires a transition once for two repeats, and both answer it', async () => {
      const { id, url } = await newClaim();
      const headers = { 'if-match': '"1"', 'idempotency-key': newKey() };
      const answers = await twice(() => ann.request('POST', `${url}/transitions/submit`, {}, headers));
      for (const answer of answers) {
        expect(answer.statusCode, answer.body).toBe(200);
        expect(body(answer)).toMatchObject({ id, state: 'submitted', version: 2 });
      }
      expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(1);
      expect(await historyOf(id)).toEqual(['create', 'transition']);
    });

    it('deletes once for two repeats of a DELETE, and both answer 204', async () => {
      const { id, url } = await newClaim();
      const headers = { 'if-match': '"1"', 'idempotency-key': newKey() };
      const answers = await twice(() => ann.request('DELETE', url, undefined, headers));
      expect(answers.map((a) => a.statusCode)).toEqual([204, 204]);
      expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(1);
      expect(await historyOf(id)).toEqual(['create', 'delete']);
    });

    it('creates once for two repeats of a create, and both answer the one record', async () => {
      const before = await world.count('claims');
      const key = newKey();
      const answers = await twice(() => ann.post('/api/claims', CLAIM, { 'idempotency-key': key }));
      expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
      const [first, second] = answers.map((a) => body(a)['id']);
      expect(second).toBe(first);
      expect(answers.map((a) => a.headers['location'])).toEqual([
        `/api/claims/${String(first)}`,
        `/api/claims/${String(first)}`,
      ]);
      expect(await world.count('claims')).toBe(before + 1);
      expect(await historyOf(first)).toEqual(['create']);
    });

    it('makes a repeat sent while the first attempt runs wait for it, and answer its outcome', async () => {
      const { id, url } = await newClaim();
      const headers = { 'if-match': '"1"', 'idempotency-key': newKey() };
      const payload = { title: 'Bus to Lyon' };
      const key = keyOf('PATCH', url, headers, payload);
      let repeat: ReturnType<Client['request']> | undefined;
      // the first attempt: its transaction takes the key and changes the record, then commits late
      await world.server.database.db.transaction().execute(async (tx) => {
        await keepOutcome(tx, key, { status: 200, recordId: String(id) }, world.server.clock.now());
        await sql`update ${sql.table(tableName('claims'))} set title = ${payload.title}, version = 2
                  where id = ${String(id)}`.execute(tx);
        repeat = ann.request('PATCH', url, payload, headers);
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      const answer = await repeat!;
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.headers['idempotent-replayed']).toBe('true');
      expect(body(answer)).toMatchObject({ id, title: 'Bus to Lyon', version: 2 });
      expect(await historyOf(id)).toEqual(['create']); // the repeat wrote nothing
    });

    it('lets a repeat whose first attempt rolls back go on as a fresh attempt', async () => {
      const { id, url } = await newClaim();
      const headers = { 'if-match': '"1"', 'idempotency-key': newKey() };
      const payload = { title: 'Bus to Lyon' };
      // a first attempt's transaction holds the key, then fails: the repeat waits for it meanwhile
      const key = keyOf('PATCH', url, headers, payload);
      let repeat: ReturnType<Client['request']> | undefined;
      const first = world.server.database.db.transaction().execute(async (tx) => {
        await keepOutcome(tx, key, { status: 200, recordId: String(id) }, world.server.clock.now());
        repeat = ann.request('PATCH', url, payload, headers);
        await new Promise((resolve) => setTimeout(resolve, 300));
        throw new Error('the first attempt fails');
      });
      await expect(first).rejects.toThrow('the first attempt fails');
      const answer = await repeat!;
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.headers['idempotent-replayed']).toBeUndefined();
      expect(body(answer)).toMatchObject({ title: 'Bus to Lyon', version: 2 });
      expect(await historyOf(id)).toEqual(['create', 'update']);
      // the repeat took the key: one more repeat answers it
      const again = await ann.request('PATCH', url, payload, headers);
      expect(again.headers['idempotent-replayed']).toBe('true');
    });

    it('makes one of two different changes of one version and refuses the other with E_CONFLICT', async () => {
      const { id, url } = await newClaim();
      const answers = await Promise.all([
        ann.patch(url, { title: 'Bus to Lyon' }, 1),
        ann.patch(url, { title: 'Plane to Lyon' }, 1),
      ]);
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses, answers.map((a) => a.body).join('\n')).toEqual([200, 409]);
      const refused = answers.find((a) => a.statusCode === 409);
      expect(problem(refused!)).toMatchObject({ code: 'E_CONFLICT' });
      const won = body(answers.find((a) => a.statusCode === 200)!);
      expect(body(await ann.get(url))).toMatchObject({ title: won['title'], version: 2 });
      expect(await historyOf(id)).toEqual(['create', 'update']);
    });

    it('fires one of two transitions of one version; the other is an honest 409', async () => {
      const { id, url } = await newClaim();
      const answers = await Promise.all([ann.fire(url, 'submit', 1), ann.fire(url, 'withdraw', 1)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      const refused = answers.find((a) => a.statusCode === 409);
      expect(problem(refused!).code).toBe('E_CONFLICT');
      expect(await historyOf(id)).toEqual(['create', 'transition']);
    });
  });
}
