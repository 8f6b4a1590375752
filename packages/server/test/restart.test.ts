/**
 * A restart keeps everything the API acknowledged: records with their versions and states, their
 * history, users, and the sessions that were signed in.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { addUser, buildApp, migrate } from '../src/index.js';
import {
  checkedInject,
  CSRF,
  DIALECTS,
  freshDatabase,
  login,
  reopen,
  specModel,
  testClock,
} from '@ninefold/testkit';

const SPEC = `
product: { name: Notes }
entities:
  Note:
    fields:
      title: { type: string, required: true }
      amount: { type: money, currency: EUR }
      tags: { type: enum, many: true, values: [a, b] }
states:
  Note:
    initial: open
    states: { open: {}, done: {} }
    transitions:
      finish: { from: open, to: done }
`;

for (const dialect of DIALECTS) {
  describe(`${dialect}: restart`, () => {
    it('keeps every record, its history, the users and their sessions', async () => {
      const model = specModel(SPEC);
      const clock = testClock();
      const { database, target } = await freshDatabase(dialect, { persistent: true });
      await migrate(database, model);
      await addUser(database, model, {
        email: 'ann@example.com',
        name: 'Ann',
        roles: ['user'],
        password: 'long enough',
      });
      const first = buildApp({ model, database, now: clock.now });
      const { cookie } = await login(first, 'ann@example.com', 'long enough');
      const headers = { ...CSRF, cookie: cookie ?? '' };
      const call = (app: typeof first, method: string, url: string, payload?: object, version?: number) =>
        checkedInject(app, model, {
          method,
          url,
          headers: { ...headers, ...(version === undefined ? {} : { 'if-match': `"${version}"` }) },
          ...(payload === undefined ? {} : { payload }),
        });
      const title = "Ünïcödé 𝔑𝔬𝔱𝔢 '); DROP TABLE notes; --";
      const created = await call(first, 'POST', '/api/notes', { title, amount: '12.30', tags: ['b', 'a'] });
      expect(created.statusCode, created.body).toBe(201);
      const id = String(created.json<{ id: string }>().id);
      expect((await call(first, 'POST', `/api/notes/${id}/transitions/finish`, {}, 1)).statusCode).toBe(200);
      await call(first, 'POST', '/api/notes', { title: 'Second' });
      const before = {
        note: (await call(first, 'GET', `/api/notes/${id}`)).json(),
        list: (await call(first, 'GET', '/api/notes?total=true')).json(),
        history: (await call(first, 'GET', `/api/notes/${id}/history`)).json(),
      };
      await first.close();
      await database.close();

      const again = await reopen(target);
      expect((await migrate(again, model)).status).toBe('up-to-date');
      const second = buildApp({ model, database: again, now: clock.now });
      try {
        // the session cookie of before the restart still signs Ann in: sessions live in the database
        const session = await call(second, 'GET', '/api/session');
        expect(session.statusCode, session.body).toBe(200);
        expect({
          note: (await call(second, 'GET', `/api/notes/${id}`)).json(),
          list: (await call(second, 'GET', '/api/notes?total=true')).json(),
          history: (await call(second, 'GET', `/api/notes/${id}/history`)).json(),
        }).toEqual(before);
        expect(before.note).toMatchObject({
          title,
          amount: '12.30',
          tags: ['b', 'a'],
          state: 'done',
          version: 2,
        });
        expect((before.list as { total: number }).total).toBe(2);
      } finally {
        await second.close();
      }
    });

    // the pragmas are SQLite's: PostgreSQL's durability is its server's configuration
    if (dialect === 'sqlite')
      it('opens SQLite durably: WAL, synchronous=FULL and a busy timeout', async () => {
        const { database } = await freshDatabase(dialect);
        const pragma = async (name: string) =>
          Object.values((await sql.raw(`pragma ${name}`).execute(database.db)).rows[0] ?? {})[0];
        expect(await pragma('journal_mode')).toBe('wal');
        expect(await pragma('synchronous')).toBe(2); // FULL
        expect(Number(await pragma('busy_timeout'))).toBeGreaterThan(0);
      });
  });
}
