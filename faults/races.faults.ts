/**
 * Races on one record and on one Idempotency-Key, 50 requests at a time, on SQLite and on the real
 * PostgreSQL server (TEST_DATABASE_URL, by default the local one; never PGlite, which would order
 * the requests one after another). Each race is run over real HTTP (a server listening on a port)
 * and through `app.inject`, whose requests reach the handlers closer together: over HTTP a process
 * on SQLite tends to take them one by one, through inject their reads and transactions interleave.
 *
 * - The same transition, or PATCHes of one version, without keys: exactly one wins, every other
 *   answers a clean 409 E_CONFLICT problem, the history shows one change.
 * - One write sent 50 times with one Idempotency-Key (a create, a PATCH, a transition, a DELETE):
 *   every answer is the first outcome, exactly one is not a replay, the effect happened once.
 *
 * No race may answer a 5xx. Each prints one line: what was tried, how it ended, the failures.
 */
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_MEDIA_TYPE as PROBLEM } from '@ninefold/model';
import { CSRF, DIALECTS, type TestServer, givenUser, login, specModel, testServer } from '@ninefold/testkit';

process.env['TEST_DATABASE_URL'] ||= 'postgres://postgres@127.0.0.1:5432/test';

/** Requests sent at once in a race. */
const RACERS = 50;
/** Races of each kind, each on a fresh record. */
const ROUNDS = 5;

const TRANSPORTS = ['http', 'inject'] as const;

const SPEC = `
product: { name: Races }
entities:
  Note:
    fields:
      title: { type: string, required: true }
states:
  Note:
    initial: open
    states: { open: {}, done: {} }
    transitions:
      finish: { from: open, to: done }
limits:
  requestsPerMinute: 1000000
`;

interface Answer {
  readonly status: number;
  readonly replayed: boolean;
  readonly problem: boolean;
  readonly body: Record<string, unknown> | null;
}

/** How the answers of a race's rounds ended, and what in them the race does not allow. */
interface Tally {
  tried: number;
  won: number;
  refused: number;
  serverErrors: number;
  failures: string[];
}

for (const dialect of DIALECTS) {
  for (const transport of TRANSPORTS) {
    describe(`${dialect} over ${transport}: ${RACERS}-way races`, () => {
      let server: TestServer;
      let origin: string;
      let cookie: string;
      let serial = 0;

      /** One request as Ann, its answer read whole. */
      const send = async (
        method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
        path: string,
        payload?: unknown,
        extra: Record<string, string> = {},
      ): Promise<Answer> => {
        const headers: Record<string, string> = {
          ...CSRF,
          cookie,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...extra,
        };
        const body = payload === undefined ? undefined : JSON.stringify(payload);
        if (transport === 'inject') {
          const r = await server.app.inject({
            method,
            url: path,
            headers,
            ...(body === undefined ? {} : { body }),
          });
          return answer(
            r.statusCode,
            String(r.headers['idempotent-replayed']),
            String(r.headers['content-type']),
            r.body,
          );
        }
        const r = await fetch(`${origin}${path}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body }),
        });
        return answer(
          r.status,
          r.headers.get('idempotent-replayed'),
          r.headers.get('content-type'),
          await r.text(),
        );
      };
      /** The same request sent RACERS times at once (`make` may vary it by its index). */
      const race = (make: (i: number) => Promise<Answer>) =>
        Promise.all(Array.from({ length: RACERS }, (_, i) => make(i)));
      const newNote = async () => {
        const created = await send('POST', '/api/notes', { title: `note ${(serial += 1)}` });
        expect(created.status).toBe(201);
        const id = String(created.body?.['id']);
        return { id, path: `/api/notes/${id}` };
      };
      const historyOf = async (id: string) => {
        const rows = await sql<{ action: string }>`
          select action from ninefold_history where record_id = ${id} order by at, id
        `.execute(server.database.db);
        return rows.rows.map((r) => r.action);
      };
      const tally = (): Tally => ({ tried: 0, won: 0, refused: 0, serverErrors: 0, failures: [] });
      /** Counts a round's answers: `won` and `refused` tell the answers the race allows. */
      const count = (
        t: Tally,
        answers: readonly Answer[],
        won: (a: Answer) => boolean,
        refused: (a: Answer) => boolean = () => false,
      ) => {
        for (const a of answers) {
          t.tried += 1;
          if (a.status >= 500) t.serverErrors += 1;
          if (won(a)) t.won += 1;
          else if (refused(a)) t.refused += 1;
          else t.failures.push(`answered ${a.status} ${JSON.stringify(a.body)}`);
        }
      };
      /** A check of a round's outcome, a failure of the race when it does not hold. */
      const check = (t: Tally, what: string, actual: unknown, expected: unknown) => {
        if (JSON.stringify(actual) !== JSON.stringify(expected)) {
          t.failures.push(`${what}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
        }
      };
      const report = (name: string, t: Tally) => {
        console.log(
          `races ${dialect} ${transport} ${name}: ${t.tried} tried, ${t.won} won, ${t.refused} refused, ` +
            `${t.serverErrors} 5xx, ${t.failures.length} failures`,
        );
        expect(t.serverErrors).toBe(0);
        expect(t.failures.slice(0, 3)).toEqual([]);
      };
      const conflict = (codes: readonly string[]) => (a: Answer) =>
        a.status === 409 && a.problem && codes.includes(String(a.body?.['code']));

      beforeAll(async () => {
        server = await testServer(dialect, specModel(SPEC));
        await givenUser(server, 'ann@example.com', ['user']);
        cookie = (await login(server.app, 'ann@example.com')).cookie ?? '';
        if (transport === 'http') origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
      });

      it('fires one of the same transition sent at once; the others are a clean 409', async () => {
        const t = tally();
        for (let round = 0; round < ROUNDS; round += 1) {
          const { id, path } = await newNote();
          const answers = await race(() =>
            send('POST', `${path}/transitions/finish`, {}, { 'if-match': '"1"' }),
          );
          count(
            t,
            answers,
            (a) => a.status === 200 && a.body?.['state'] === 'done',
            conflict(['E_CONFLICT']),
          );
          check(t, 'winners', answers.filter((a) => a.status === 200).length, 1);
          check(t, 'history', await historyOf(id), ['create', 'transition']);
        }
        report('transition, no key', t);
      });

      it('makes one of the PATCHes of one version sent at once; the others are E_CONFLICT', async () => {
        const t = tally();
        for (let round = 0; round < ROUNDS; round += 1) {
          const { id, path } = await newNote();
          const answers = await race((i) =>
            send('PATCH', path, { title: `racer ${i}` }, { 'if-match': '"1"' }),
          );
          count(t, answers, (a) => a.status === 200 && a.body?.['version'] === 2, conflict(['E_CONFLICT']));
          const winners = answers.filter((a) => a.status === 200);
          check(t, 'winners', winners.length, 1);
          const now = (await send('GET', path)).body;
          check(t, 'the record', [now?.['title'], now?.['version']], [winners[0]?.body?.['title'], 2]);
          check(t, 'history', await historyOf(id), ['create', 'update']);
        }
        report('PATCH of one version, no key', t);
      });

      /** Counts a keyed round: every answer the first outcome, exactly one of them not a replay. */
      const once = (t: Tally, answers: readonly Answer[], first: (a: Answer) => boolean) => {
        count(t, answers, first);
        check(t, 'answers not replayed', answers.filter((a) => !a.replayed).length, 1);
      };
      const key = () => ({ 'idempotency-key': `race-${dialect}-${transport}-${(serial += 1)}` });

      it('answers a PATCH sent at once with one key by its one change', async () => {
        const t = tally();
        for (let round = 0; round < ROUNDS; round += 1) {
          const { id, path } = await newNote();
          const headers = { 'if-match': '"1"', ...key() };
          const answers = await race(() => send('PATCH', path, { title: 'changed once' }, headers));
          once(
            t,
            answers,
            (a) => a.status === 200 && a.body?.['title'] === 'changed once' && a.body['version'] === 2,
          );
          check(t, 'history', await historyOf(id), ['create', 'update']);
        }
        report('PATCH, one key', t);
      });

      it('answers a transition sent at once with one key by its one firing', async () => {
        const t = tally();
        for (let round = 0; round < ROUNDS; round += 1) {
          const { id, path } = await newNote();
          const headers = { 'if-match': '"1"', ...key() };
          const answers = await race(() => send('POST', `${path}/transitions/finish`, {}, headers));
          once(
            t,
            answers,
            (a) => a.status === 200 && a.body?.['state'] === 'done' && a.body['version'] === 2,
          );
          check(t, 'history', await historyOf(id), ['create', 'transition']);
        }
        report('transition, one key', t);
      });

      it('answers a DELETE sent at once with one key by its one deletion', async () => {
        const t = tally();
        for (let round = 0; round < ROUNDS; round += 1) {
          const { id, path } = await newNote();
          const headers = { 'if-match': '"1"', ...key() };
          const answers = await race(() => send('DELETE', path, undefined, headers));
          once(t, answers, (a) => a.status === 204);
          check(t, 'a read after', (await send('GET', path)).status, 404);
          check(t, 'history', await historyOf(id), ['create', 'delete']);
        }
        report('DELETE, one key', t);
      });

      it('answers a create sent at once with one key by its one record', async () => {
        const t = tally();
        for (let round = 0; round < ROUNDS; round += 1) {
          const title = `created once ${(serial += 1)}`;
          const headers = key();
          const answers = await race(() => send('POST', '/api/notes', { title }, headers));
          const id = answers.find((a) => !a.replayed)?.body?.['id'];
          once(t, answers, (a) => a.status === 201 && a.body?.['id'] === id);
          const rows = await sql<{ id: string }>`select id from notes where title = ${title}`.execute(
            server.database.db,
          );
          check(
            t,
            'records made',
            rows.rows.map((r) => r.id),
            [id],
          );
          check(t, 'history', await historyOf(String(id)), ['create']);
        }
        report('create, one key', t);
      });
    });
  }
}

/** An answer read whole: its status, whether it is a replay, a problem, and its JSON body. */
function answer(status: number, replayed: string | null, type: string | null, text: string): Answer {
  return {
    status,
    replayed: replayed === 'true',
    problem: (type ?? '').startsWith(PROBLEM),
    body: json(text),
  };
}

/** A body as JSON; one that is not (it should never be) is kept as its text, for the report. */
function json(text: string): Record<string, unknown> | null {
  if (text === '') return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { notJson: text.slice(0, 200) };
  }
}
