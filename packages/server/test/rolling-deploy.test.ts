/**
 * A rolling deploy on one database (decision 0059): version 1 of a spec serves with traffic —
 * reads, creates, transitions — while the pre-deploy step migrates the database to version 2 (a
 * field and a screen more); version 2 starts beside it; both are ready and serve side by side. No
 * write through either is lost or made twice, each reads the other's records (version 1 simply does
 * not see the new field), and a change through version 1 leaves version 2's field alone.
 *
 * Two apps, each on a connection of its own where the dialect allows it (a SQLite file opened twice,
 * two pools on the PostgreSQL server), as two processes would be; on PGlite, one in-process database.
 */
import { type Model } from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  CSRF,
  DIALECTS,
  PASSWORD,
  checkedInject,
  freshDatabase,
  login,
  opensTwice,
  reopen,
  specModel,
} from '@ninefold/testkit';
import { type Database, addUser, buildApp, migrate } from '../src/index.js';

const V1 = `
product: { name: Notes }
entities:
  Note:
    fields:
      title: { type: string, required: true }
      body: { type: text }
states:
  Note:
    initial: open
    states: { open: {}, done: {} }
    transitions:
      finish: { from: open, to: done }
roles:
  writer: { Note: true }
`;

/** Version 2: a field, and a screen that lists by it (an index of its own). */
const V2 = `${V1.replace('      body: { type: text }\n', '      body: { type: text }\n      tag: { type: string }\n')}
screens:
  tagged: { path: /tagged, entity: Note, title: Tagged, sort: tag }
`;

type Json = Record<string, unknown>;

/** A signed-in writer on one app; every answer is checked against that app's OpenAPI document. */
function writer(app: FastifyInstance, model: Model, cookie: string) {
  const call = (method: string, url: string, payload?: object, headers: Record<string, string> = {}) =>
    checkedInject(app, model, {
      method,
      url,
      headers: { ...CSRF, cookie, ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
  return {
    call,
    read: async (id: string) => {
      const response = await call('GET', `/api/notes/${id}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Json>();
    },
    ready: async () => (await app.inject({ method: 'GET', url: '/ready' })).statusCode,
  };
}

type Writer = ReturnType<typeof writer>;

/** What a stream of traffic acknowledged: the notes it created, and those it finished. */
interface Acknowledged {
  readonly created: string[];
  readonly finished: string[];
}

/**
 * Creates, reads, lists and transitions through one app, `rounds` times, and returns what the app
 * acknowledged. Every answer must be a success: a deploy that refuses traffic fails the test.
 */
async function traffic(by: Writer, label: string, rounds: number, fields: Json = {}): Promise<Acknowledged> {
  const done: Acknowledged = { created: [], finished: [] };
  for (let i = 0; i < rounds; i++) {
    const created = await by.call('POST', '/api/notes', { title: `${label} ${i}`, ...fields });
    expect(created.statusCode, created.body).toBe(201);
    const id = String(created.json<Json>()['id']);
    done.created.push(id);
    expect((await by.read(id))['title']).toBe(`${label} ${i}`);
    expect((await by.call('GET', '/api/notes?limit=5')).statusCode).toBe(200);
    if (i % 2 === 0) {
      const fired = await by.call('POST', `/api/notes/${id}/transitions/finish`, {}, { 'if-match': '"1"' });
      expect(fired.statusCode, fired.body).toBe(200);
      done.finished.push(id);
    }
  }
  return done;
}

async function count(database: Database, table: string): Promise<number> {
  const result = await sql<{ n: unknown }>`select count(*) as n from ${sql.table(table)}`.execute(
    database.db,
  );
  return Number(result.rows[0]?.n);
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: a rolling deploy`, { timeout: 180_000 }, () => {
    it('serves version 1 through the pre-deploy migration, then both versions side by side, losing nothing', async () => {
      const [v1, v2] = [specModel(V1), specModel(V2)];
      const { database: first, target } = await freshDatabase(dialect);
      await migrate(first, v1);
      await addUser(first, v1, {
        email: 'wes@example.com',
        name: 'Wes',
        roles: ['writer'],
        password: PASSWORD,
      });
      const one = buildApp({ model: v1, database: first, logger: false });
      // the second instance's own connection, as another process has
      const second = opensTwice(dialect) ? await reopen(target) : first;
      let two: FastifyInstance | undefined;
      try {
        const cookie = (await login(one, 'wes@example.com')).cookie ?? '';
        const old = writer(one, v1, cookie);
        expect(await old.ready()).toBe(200);

        // version 1 under traffic while the pre-deploy step migrates the database to version 2
        const [during, , alsoDuring] = await Promise.all([
          traffic(old, 'during A', 6),
          migrate(second, v2),
          traffic(old, 'during B', 6),
        ]);
        expect(await old.ready()).toBe(200);

        // version 2 starts beside it; the session made through version 1 holds on version 2
        two = buildApp({ model: v2, database: second, logger: false });
        const next = writer(two, v2, cookie);
        expect(await next.ready()).toBe(200);
        const both = await Promise.all([
          traffic(old, 'old A', 6),
          traffic(next, 'new A', 6, { tag: 'blue' }),
          traffic(old, 'old B', 6),
          traffic(next, 'new B', 6, { tag: 'green' }),
        ]);
        expect([await old.ready(), await next.ready()]).toEqual([200, 200]);

        const byOld = [...during.created, ...alsoDuring.created, ...both[0].created, ...both[2].created];
        const byNew = [...both[1].created, ...both[3].created];
        const finished = [during, alsoDuring, ...both].flatMap((a) => a.finished);
        // none lost, none made twice
        expect(new Set([...byOld, ...byNew]).size).toBe(byOld.length + byNew.length);
        expect(await count(second, 'notes')).toBe(byOld.length + byNew.length);
        const listed = await next.call('GET', '/api/notes?sort=tag&limit=100');
        expect(listed.statusCode).toBe(200);
        expect(
          listed
            .json<{ data: Json[] }>()
            .data.map((r) => String(r['id']))
            .sort(),
        ).toEqual([...byOld, ...byNew].sort());

        // each reads the other's records; version 1 does not see the new field
        for (const id of byNew) {
          const seen = await old.read(id);
          expect(seen).not.toHaveProperty('tag');
          expect(seen['state']).toBe(finished.includes(id) ? 'done' : 'open');
          expect(['blue', 'green']).toContain((await next.read(id))['tag']);
        }
        for (const id of byOld) {
          const seen = await next.read(id);
          expect(seen['tag'] ?? null).toBeNull();
          expect(seen['state']).toBe(finished.includes(id) ? 'done' : 'open');
        }

        // a change through version 1 keeps what version 2 stored in the field it does not know
        const [tagged = ''] = byNew;
        const before = await old.read(tagged);
        const renamed = await old.call(
          'PATCH',
          `/api/notes/${tagged}`,
          { title: 'renamed by version 1' },
          { 'if-match': `"${String(before['version'])}"` },
        );
        expect(renamed.statusCode, renamed.body).toBe(200);
        expect(await next.read(tagged)).toMatchObject({ title: 'renamed by version 1', tag: 'blue' });
      } finally {
        await one.close();
        await two?.close();
      }
    });
  });
}
