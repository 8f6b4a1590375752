/**
 * The live events stream (`GET /api/events`, decision 0056), over real HTTP on every dialect: a
 * change reaches the streams of the users who may read its record and no other, ids only; a
 * rolled-back write sends nothing; `Last-Event-ID`, or the cursor a read handed (`?since=`),
 * replays what was missed or asks for a resync;
 * the route's guards (off in the spec, a guest, too many streams) and the stream's end (sign-out,
 * the app's close). On the real PostgreSQL server only: a write through one database handle
 * reaches a stream held on another, and commits that land out of order lose no event.
 */
import { EVENT_CURSOR_HEADER, EVENT_REPLAY_MS, STREAM_EVENTS } from '@ninefold/model';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CSRF,
  DIALECTS,
  type TestDialect,
  type TestServer,
  givenUser,
  login,
  problem,
  reopen,
  specModel,
  testServer,
} from '@ninefold/testkit';
import { MAX_STREAMS_PER_USER, buildApp, logRecordChange } from '../src/index.js';
import { type OpenStream, arrives, openStream } from './event-stream.js';

const spec = (realtime: boolean) => `
calls: { realtime: ${realtime} }
entities:
  Note:
    fields:
      title: { type: string }
roles:
  editor:
    Note: { read: true, create: true, update: true, delete: true }
  author:
    Note: { read: "createdBy == user.id", create: true, update: true }
states:
  Note:
    initial: draft
    transitions:
      publish: { from: draft, to: published }
`;
const model = specModel(spec(true));
const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? '';

type Json = Record<string, unknown>;

const opened: OpenStream[] = [];
afterEach(() => {
  for (const stream of opened.splice(0)) stream.close();
});

/** A listening server with an editor (reads every note) and an author (reads their own). */
async function world(dialect: TestDialect, server?: TestServer) {
  const s = server ?? (await testServer(dialect, model));
  await givenUser(s, 'ed@example.com', ['editor']);
  await givenUser(s, 'al@example.com', ['author']);
  const ed = (await login(s.app, 'ed@example.com')).cookie!;
  const al = (await login(s.app, 'al@example.com')).cookie!;
  const base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  const stream = async (cookie: string | undefined, lastEventId?: string, query = '') => {
    const open = await openStream(`${base}/api/events${query}`, cookie, lastEventId);
    opened.push(open);
    return open;
  };
  const call = async (cookie: string, method: string, url: string, payload?: unknown, ifMatch?: number) => {
    const response = await s.app.inject({
      method: method as 'POST',
      url,
      headers: { ...CSRF, cookie, ...(ifMatch === undefined ? {} : { 'if-match': `"${ifMatch}"` }) },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.body === '' ? {} : response.json<Json>();
  };
  const create = async (cookie: string, title: string) =>
    String((await call(cookie, 'POST', '/api/notes', { title }))['id']);
  return { server: s, base, ed, al, stream, call, create };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the live events stream`, () => {
    it('a create, an edit, a transition and a delete reach who may read the record, ids only', async () => {
      const { ed, al, stream, call, create } = await world(dialect);
      const edStream = await stream(ed);
      const alStream = await stream(al);
      expect(edStream.status).toBe(200);
      expect(edStream.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(edStream.messages[0]?.retry).toBe('2000');

      // the editor's note: the author may not read it
      const edNote = await create(ed, 'the editor’s');
      await arrives(edStream, edNote, 'created');
      const alNote = await create(al, 'the author’s');
      expect(await arrives(alStream, alNote, 'created')).toEqual({
        entity: 'Note',
        id: alNote,
        kind: 'created',
        transition: null,
        version: 1,
      });
      await arrives(edStream, alNote, 'created');
      // each change waits for its event: a record changed again before the hub reads it is decided as it is then
      await call(ed, 'PATCH', `/api/notes/${alNote}`, { title: 'edited' }, 1);
      for (const viewer of [edStream, alStream]) await arrives(viewer, alNote, 'updated');
      await call(ed, 'POST', `/api/notes/${alNote}/transitions/publish`, {}, 2);
      for (const viewer of [edStream, alStream])
        expect(await arrives(viewer, alNote, 'transition')).toMatchObject({
          transition: 'publish',
          version: 3,
        });
      await call(ed, 'DELETE', `/api/notes/${alNote}`, undefined, 3);
      // decided over the values the deleted record had
      for (const viewer of [edStream, alStream])
        expect(await arrives(viewer, alNote, 'deleted')).toMatchObject({ version: 3 });
      // the author's stream had everything after the editor's note, in order, and never that note
      expect(alStream.records().map((r) => r.id)).not.toContain(edNote);
      expect(alStream.records().map((r) => r.kind)).toEqual(['created', 'updated', 'transition', 'deleted']);
      // never a value
      for (const message of alStream.messages) expect(message.data ?? '').not.toContain('edited');
      expect(alStream.messages.every((m) => m.id !== undefined || m.retry !== undefined)).toBe(true);
    });

    it('a rolled-back write sends nothing', async () => {
      const { server, ed, stream, create } = await world(dialect);
      const edStream = await stream(ed);
      const ghost = '019ab3c2-7f10-7a3e-9c4d-2b8f0e6a1d55';
      await expect(
        server.database.db.transaction().execute(async (tx) => {
          await logRecordChange(tx, deletedNote(ghost, server.clock.now()));
          throw new Error('the change fails');
        }),
      ).rejects.toThrow('the change fails');
      const note = await create(ed, 'after');
      await arrives(edStream, note, 'created');
      expect(edStream.records().map((r) => r.id)).toEqual([note]);
    });

    it('Last-Event-ID replays what was missed; a too-old or unknown one gets resync', async () => {
      const { server, ed, al, stream, create } = await world(dialect);
      const first = await stream(al);
      await expect.poll(() => first.lastId()).toBeDefined();
      const cursor = first.lastId()!;
      first.close();
      // written while the author was away: one theirs, one not
      await create(ed, 'not theirs');
      const missed = await create(al, 'theirs');
      const again = await stream(al, cursor);
      await arrives(again, missed, 'created');
      expect(again.records().map((r) => r.id)).toEqual([missed]);
      again.close();

      server.clock.advance(EVENT_REPLAY_MS + 1000);
      for (const id of [cursor, 'not-a-cursor']) {
        const late = await stream(al, id);
        await expect.poll(() => late.messages.some((m) => m.event === STREAM_EVENTS.resync)).toBe(true);
        const resync = late.messages.find((m) => m.event === STREAM_EVENTS.resync)!;
        expect(resync.data).toBe('{}');
        expect(resync.id).toBeDefined();
        late.close();
      }
    });

    it('a read hands its cursor; a stream opened from it (?since) replays what committed after the read', async () => {
      const { server, base, ed, al, stream, create } = await world(dialect);
      const before = await create(al, 'read by the list');
      const read = async (url: string) => {
        const response = await server.app.inject({ method: 'GET', url, headers: { cookie: al } });
        expect(response.statusCode, response.body).toBe(200);
        return response.headers[EVENT_CURSOR_HEADER];
      };
      const cursor = await read('/api/notes');
      expect(cursor).toMatch(/^\d+\.\d+$/);
      expect(await read(`/api/notes/${before}`)).toMatch(/^\d+\.\d+$/);
      expect(await read(`/api/notes/${before}/history`)).toMatch(/^\d+\.\d+$/);
      // not a read of records: nothing to resume from
      expect(await read('/api/session')).toBeUndefined();

      // committed after the read, before the stream opens: one the author may read, one not
      await create(ed, 'not theirs');
      const missed = await create(al, 'after the read');
      const fromRead = await stream(al, undefined, `?since=${encodeURIComponent(String(cursor))}`);
      await arrives(fromRead, missed, 'created');
      // what the read had is not sent again (nothing before the cursor), and no resync
      expect(fromRead.records().map((r) => r.id)).toEqual([missed]);
      expect(fromRead.messages.some((m) => m.event === STREAM_EVENTS.resync)).toBe(false);
      // once replayed, the stream stands at the present: a quiet stream resumes from there
      await expect.poll(() => fromRead.messages.at(-1)?.id).toMatch(/^\d+\.\d+$/);
      fromRead.close();

      // the browser's own reconnection sends Last-Event-ID, which wins over the URL's cursor
      const resumed = await stream(al, String(cursor), '?since=not-a-cursor');
      await arrives(resumed, missed, 'created');
      expect(resumed.messages.some((m) => m.event === STREAM_EVENTS.resync)).toBe(false);
      resumed.close();

      // a cursor the server cannot honour, in any form, is a resync: never an error
      const unknown = ['?since=not-a-cursor', '?since=', '?since=1.2&since=3.4', '?since=%E2%82%AC'];
      server.clock.advance(EVENT_REPLAY_MS + 1000);
      for (const query of [`?since=${encodeURIComponent(String(cursor))}`, ...unknown]) {
        const late = await openStream(`${base}/api/events${query}`, al);
        opened.push(late);
        expect(late.status, query).toBe(200);
        await expect.poll(() => late.messages.some((m) => m.event === STREAM_EVENTS.resync)).toBe(true);
        // nothing replayed: the resync comes first (what the hub reads after it is live, and may be
        // a write it had not read yet when the stream opened: the stream stands at its cursor)
        expect(late.messages.find((m) => m.event !== undefined)?.event, query).toBe(STREAM_EVENTS.resync);
        late.close();
      }
    });

    it('the log keeps what a replay needs and prunes what is older', async () => {
      const { server, ed, stream, create } = await world(dialect);
      const edStream = await stream(ed);
      const old = await create(ed, 'old');
      await arrives(edStream, old, 'created');
      server.clock.advance(EVENT_REPLAY_MS + 2 * 60_000);
      const fresh = await create(ed, 'fresh');
      await arrives(edStream, fresh, 'created');
      // the hub prunes once a minute: whenever it pruned before, it prunes again after this
      server.clock.advance(61_000);
      const last = await create(ed, 'last');
      await arrives(edStream, last, 'created');
      const logged = async () =>
        (await server.database.db.selectFrom('ninefold_events').select('record_id').execute())
          .map((row) => row['record_id'] as string)
          .sort();
      await expect.poll(logged).toEqual([fresh, last].sort());
    });

    it('signing out ends the stream; the app’s close ends every stream at once', async () => {
      const { server, ed, al, stream } = await world(dialect);
      const alStream = await stream(al);
      await expect.poll(() => alStream.lastId()).toBeDefined();
      const out = await server.app.inject({
        method: 'DELETE',
        url: '/api/session',
        headers: { ...CSRF, cookie: al },
      });
      expect(out.statusCode).toBeLessThan(300);
      await alStream.ended;

      const open = [await stream(ed), await stream(ed)];
      for (const s of open) await expect.poll(() => s.lastId()).toBeDefined();
      // were the streams waited for, close would not return before the test's timeout
      await server.app.close();
      await Promise.all(open.map((s) => s.ended));
      expect(open.every((s) => s.isEnded())).toBe(true);
    });

    it('a stream opened with an API token ends when the token is revoked', async () => {
      const server = await testServer(dialect, { ...model, auth: { ...model.auth, tokens: ['editor'] } });
      const { ed, base, create, call } = await world(dialect, server);
      const made = await call(ed, 'POST', '/api/tokens', { name: 'watcher' });
      const byToken = await openStream(`${base}/api/events`, undefined, undefined, {
        authorization: `Bearer ${String(made['token'])}`,
      });
      opened.push(byToken);
      expect(byToken.status).toBe(200);
      const note = await create(ed, 'seen by the token');
      await arrives(byToken, note, 'created');
      await call(ed, 'DELETE', `/api/tokens/${String(made['id'])}`);
      await byToken.ended;
    });

    it('refuses a guest (401), and a user past the cap of open streams (429)', async () => {
      const { ed, stream } = await world(dialect);
      const guest = await stream(undefined);
      expect(guest.status).toBe(401);
      const streams = [];
      for (let i = 0; i < MAX_STREAMS_PER_USER; i++) streams.push(await stream(ed));
      expect(streams.every((s) => s.status === 200)).toBe(true);
      const over = await stream(ed);
      expect(over.status).toBe(429);
      expect(over.headers['retry-after']).toBe('2');
      streams[0]!.close();
      await expect
        .poll(async () => {
          const next = await stream(ed);
          next.close();
          return next.status;
        })
        .toBe(200);
    });

    it('calls.realtime: false — the route does not exist', async () => {
      const server = await testServer(dialect, specModel(spec(false)));
      await givenUser(server, 'ed@example.com', ['editor']);
      const { cookie } = await login(server.app, 'ed@example.com');
      const response = await server.app.inject({
        method: 'GET',
        url: '/api/events',
        headers: { cookie: cookie! },
      });
      expect(response.statusCode).toBe(404);
      expect(problem(response).code).toBe('E_ROUTE_NOT_FOUND');
      const document = (await server.app.inject({ method: 'GET', url: '/openapi.json' })).json<Json>();
      expect(Object.keys(document['paths'] as Json)).not.toContain('/api/events');
    });

    it('the API description documents the stream as text/event-stream', async () => {
      const server = await testServer(dialect, model);
      const document = (await server.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
        paths: Record<string, { get: { responses: Record<string, { content?: Json }> } }>;
      }>();
      const get = document.paths['/api/events']?.get;
      expect(Object.keys(get?.responses['200']?.content ?? {})).toEqual(['text/event-stream']);
      expect(Object.keys(get?.responses ?? {})).toEqual(expect.arrayContaining(['200', '401', '429']));
    });

    if (dialect === 'postgres' && TEST_DATABASE_URL !== '') realPostgresTests();
  });
}

/** A `deleted` change of a note the editor may read, logged by hand in a transaction the test holds. */
function deletedNote(id: string, now: Date) {
  const values = { id, version: 1, title: 'held', state: 'draft', createdBy: null };
  return { entity: 'Note', kind: 'deleted' as const, transition: null, before: values, after: null, now };
}

function realPostgresTests() {
  it('a write through one database handle reaches a stream held on another, within a second', async () => {
    const a = await world('postgres');
    const other = await reopen(a.server.target);
    const appB = buildApp({ model, database: other, now: a.server.clock.now });
    try {
      const baseB = await appB.listen({ port: 0, host: '127.0.0.1' });
      const onB = await openStream(`${baseB}/api/events`, a.ed);
      opened.push(onB);
      await expect.poll(() => onB.lastId()).toBeDefined();
      const written = Date.now();
      const note = await a.create(a.al, 'through A');
      await arrives(onB, note, 'created');
      expect(Date.now() - written).toBeLessThan(1000);
    } finally {
      await appB.close();
    }
  });

  it('commits that land out of order lose no event', async () => {
    const a = await world('postgres');
    const other = await reopen(a.server.target);
    const appB = buildApp({ model, database: other, now: a.server.clock.now });
    try {
      const baseB = await appB.listen({ port: 0, host: '127.0.0.1' });
      const onB = await openStream(`${baseB}/api/events`, a.ed);
      opened.push(onB);
      await expect.poll(() => onB.lastId()).toBeDefined();
      const held = '019ab3c2-7f10-7a3e-9c4d-2b8f0e6a1d56';
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      let logged: () => void = () => undefined;
      const heldLogged = new Promise<void>((resolve) => (logged = resolve));
      // the first transaction logs first and commits last
      const first = a.server.database.db.transaction().execute(async (tx) => {
        await logRecordChange(tx, deletedNote(held, a.server.clock.now()));
        logged();
        await released;
      });
      await heldLogged;
      const later = await a.create(a.ed, 'committed first');
      await arrives(onB, later, 'created');
      release();
      await first;
      await arrives(onB, held, 'deleted');
    } finally {
      await appB.close();
    }
  });
}
