/**
 * The helpdesk example over HTTP, on every database: organisation-scoped reads, masks, refs to
 * records of another organisation, transitions with `set` effects and guards.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, login, problem } from '@ninefold/testkit';
import { JobRunner, TABLES, productJobHandlers, tableName } from '../src/index.js';
import { type Client, type Json, type World, body, exampleWorld } from './world.js';

for (const dialect of DIALECTS) {
  describe(`${dialect}: helpdesk`, () => {
    let world: World;
    let cara: Client, carl: Client, dan: Client, agnes: Client, lee: Client;
    let acme: string, globex: string;

    beforeAll(async () => {
      world = await exampleWorld(dialect, 'helpdesk.md', {
        cara: ['customer'],
        carl: ['customer'],
        dan: ['customer'],
        agnes: ['agent'],
        lee: ['lead'],
      });
      ({ cara, carl, dan, agnes, lee } = world.as as Record<
        'cara' | 'carl' | 'dan' | 'agnes' | 'lee',
        Client
      >);
      const organization = async (name: string, domain: string) => {
        const response = await lee.post('/api/organizations', { name, domain });
        expect(response.statusCode, response.body).toBe(201);
        return String(body(response)['id']);
      };
      acme = await organization('ACME', 'acme.example');
      globex = await organization('Globex', 'globex.example');
      // customers belong to an organisation: set in the database, as an administrator's tool would
      const users = world.server.database.db;
      await users
        .updateTable('users')
        .set({ organization: acme })
        .where('id', 'in', [cara.id, carl.id])
        .execute();
      await users.updateTable('users').set({ organization: globex }).where('id', '=', dan.id).execute();
    }, 60_000);

    async function ticket(by: Client, fields: Json = {}): Promise<Json> {
      const response = await by.post('/api/tickets', {
        subject: 'Cannot sign in',
        description: 'The login page loops.',
        ...fields,
      });
      expect(response.statusCode, response.body).toBe(201);
      return body(response);
    }

    it('customers read their organisation’s tickets, masked; others get 404', async () => {
      const t = await ticket(cara);
      expect(t).toMatchObject({
        state: 'new',
        requester: cara.id,
        organization: acme,
        areas: ['login'],
        priority: 'normal',
      });
      expect(t).not.toHaveProperty('mailHeaders');
      expect((await carl.get(`/api/tickets/${String(t['id'])}`)).statusCode).toBe(200);
      expect(problem(await dan.get(`/api/tickets/${String(t['id'])}`)).status).toBe(404);
      const danList = body(await dan.get('/api/tickets?total=true'));
      expect(danList['total']).toBe(0);
      expect(body(await agnes.get(`/api/tickets/${String(t['id'])}`))).toHaveProperty('mailHeaders');
      const orgs = body(await cara.get('/api/organizations?total=true'));
      expect((orgs['data'] as Json[]).map((o) => o['id'])).toEqual([acme]);
      expect(problem(await cara.get('/api/tickets?mailHeaders[isNull]=true')).code).toBe('E_INVALID_QUERY');
    });

    it('refuses a comment on a ticket the customer may not see', async () => {
      const theirs = await ticket(dan);
      const p = problem(
        await cara.post('/api/comments', { ticket: theirs['id'], organization: acme, body: 'Hello' }),
      );
      expect(p.errors?.[0]).toMatchObject({ field: 'ticket', code: 'E_REF_NOT_FOUND' });
      const mine = await ticket(cara);
      const ok = await cara.post('/api/comments', {
        ticket: mine['id'],
        organization: acme,
        body: 'Any news?',
      });
      expect(ok.statusCode, ok.body).toBe(201);
    });

    it('take sets the assignee and the due time; answer is guarded by the assignee; resolve requires a resolution', async () => {
      let t = await ticket(cara, { priority: 'urgent' });
      const url = `/api/tickets/${String(t['id'])}`;
      expect(problem(await cara.fire(url, 'take', 1))).toMatchObject({ status: 403, code: 'E_FORBIDDEN' });
      const taken = await agnes.fire(url, 'take', 1);
      expect(taken.statusCode, taken.body).toBe(200);
      t = body(taken);
      expect(t).toMatchObject({ state: 'open', assignee: agnes.id, dueAt: '2026-03-01T13:00:00.000Z' });
      expect(problem(await lee.fire(url, 'answer', Number(t['version'])))).toMatchObject({
        status: 409,
        code: 'E_NOT_ASSIGNEE',
        message: 'Only the agent the ticket is assigned to answers it: take it first.',
      });
      const missing = problem(await agnes.fire(url, 'resolve', Number(t['version'])));
      expect(missing.errors?.[0]).toMatchObject({ field: 'resolution', code: 'E_REQUIRED' });
      const short = problem(await agnes.fire(url, 'resolve', Number(t['version']), { resolution: 'Fixed.' }));
      expect(short.code).toBe('E_RESOLUTION_TOO_SHORT');
      const resolved = await agnes.fire(url, 'resolve', Number(t['version']), {
        resolution: 'Cleared the stale session cookie on our side.',
      });
      expect(body(resolved)).toMatchObject({ state: 'resolved', resolvedAt: '2026-03-01T09:00:00.000Z' });
      expect(problem(await agnes.fire(url, 'take', Number(body(resolved)['version']))).code).toBe(
        'E_TRANSITION_NOT_ALLOWED',
      );
    });

    it('a customer may not raise the priority of a ticket being worked on', async () => {
      const t = await ticket(cara);
      const url = `/api/tickets/${String(t['id'])}`;
      const taken = body(await agnes.fire(url, 'take', 1));
      const p = problem(await cara.patch(url, { priority: 'urgent' }, Number(taken['version'])));
      expect(p).toMatchObject({ code: 'E_PRIORITY_LOCKED' });
      expect(body(await cara.get(url))['priority']).toBe('normal');
    });

    // last: it moves the clock on by a week, past every session
    it('a customer reopens a resolved ticket within the window, and is told in the spec’s words after it', async () => {
      const t = await ticket(cara);
      const url = `/api/tickets/${String(t['id'])}`;
      const resolve = async (version: number) => {
        const resolved = await agnes.fire(url, 'resolve', version, {
          resolution: 'Cleared the stale session cookie on our side.',
        });
        expect(resolved.statusCode, resolved.body).toBe(200);
        return Number(body(resolved)['version']);
      };
      const taken = body(await agnes.fire(url, 'take', 1));
      const reopened = await cara.fire(url, 'reopen', await resolve(Number(taken['version'])));
      expect(body(reopened)).toMatchObject({ state: 'open' });
      const version = await resolve(Number(body(reopened)['version']));
      world.server.clock.advance(169 * 3_600_000); // REOPEN_WINDOW is 168h
      const { cookie } = await login(world.server.app, 'cara@example.com');
      const late = await cara.request(
        'POST',
        `${url}/transitions/reopen`,
        {},
        {
          cookie: cookie ?? '',
          'if-match': `"${version}"`,
        },
      );
      expect(problem(late)).toMatchObject({
        status: 409,
        code: 'E_REOPEN_TOO_LATE',
        message: 'This ticket was resolved too long ago to reopen: open a new ticket instead.',
      });
    });

    // after the reopen test, whose clock it moves on again
    it('a ticket still resolved a week after it was resolved closes by itself', async () => {
      const { cookie } = await login(world.server.app, 'agnes@example.com');
      const as = { cookie: cookie ?? '' };
      const created = await cara.request(
        'POST',
        '/api/tickets',
        { subject: 'VPN drops', description: 'Daily.' },
        {
          cookie: (await login(world.server.app, 'cara@example.com')).cookie ?? '',
        },
      );
      expect(created.statusCode, created.body).toBe(201);
      const id = String(body(created)['id']);
      const url = `/api/tickets/${id}`;
      const taken = await agnes.request('POST', `${url}/transitions/take`, {}, { ...as, 'if-match': '"1"' });
      const resolved = await agnes.request(
        'POST',
        `${url}/transitions/resolve`,
        { resolution: 'Replaced the router.' },
        { ...as, 'if-match': `"${String(body(taken)['version'])}"` },
      );
      expect(resolved.statusCode, resolved.body).toBe(200);
      const { database, clock, model, files } = world.server;
      const runner = new JobRunner({
        database,
        now: clock.now,
        handlers: productJobHandlers({ model, database, files, now: clock.now }),
      });
      const stateOf = async () =>
        (
          await database.db
            .selectFrom(tableName('tickets'))
            .select('state')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        )['state'];
      clock.advance(7 * 24 * 3_600_000 - 1);
      await runner.runDue();
      expect(await stateOf()).toBe('resolved');
      clock.advance(1);
      await runner.runDue();
      expect(await stateOf()).toBe('closed');
      const entry = await database.db
        .selectFrom(TABLES.history)
        .selectAll()
        .where('record_id', '=', id)
        .where('transition', '=', 'autoClose')
        .executeTakeFirstOrThrow();
      expect(entry['by']).toBeNull();
    });
  });
}
