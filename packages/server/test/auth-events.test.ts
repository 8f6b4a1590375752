/**
 * The identity audit trail over HTTP (decision 0038): sign-ins, failed ones (with the address
 * tried), sign-outs, each with when and from where; read by admins only, newest first, by kind, user
 * and page.
 */
import { describe, expect, it } from 'vitest';
import { type WireAuthEvent } from '@ninefold/model';
import {
  checkedInject,
  CSRF,
  DIALECTS,
  givenUser,
  login,
  problem,
  specModel,
  testServer,
  type TestServer,
} from '@ninefold/testkit';

const SPEC = `
product: { name: Outbox }
entities:
  Note:
    fields:
      title: { type: string, required: true }
roles:
  admin:
    Note: true
    User:
      read: true
      create: true
      update: true
      fields: { write: [name, email, roles, disabled] }
  clerk:
    Note: true
`;

function get(server: TestServer, cookie: string, url: string) {
  return checkedInject(server.app, server.model, { method: 'GET', url, headers: { cookie } });
}

const list = async (server: TestServer, cookie: string, query = '') => {
  const response = await get(server, cookie, `/api/admin/auth-events${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: WireAuthEvent[] }>().data;
};

for (const dialect of DIALECTS) {
  describe(`${dialect}: the identity audit trail`, () => {
    it('records sign-ins, failed ones and sign-outs, with who, when and from where', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const ada = await givenUser(server, 'ada@example.com', ['admin']);
      const cal = await givenUser(server, 'cal@example.com', ['clerk']);
      const start = server.clock.now().getTime();
      const at = (seconds: number) => new Date(start + seconds * 1000).toISOString();

      const failed = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/session',
        headers: { ...CSRF, 'user-agent': 'Script/1.0' },
        payload: { email: ' Cal@Example.COM ', password: 'a wrong guess' },
      });
      expect(failed.statusCode).toBe(401);
      server.clock.advance(1000);
      await login(server.app, 'Nobody@Example.com', 'a wrong guess');
      server.clock.advance(1000);
      const calCookie = (await login(server.app, 'cal@example.com')).cookie ?? '';
      server.clock.advance(1000);
      const out = await checkedInject(server.app, server.model, {
        method: 'DELETE',
        url: '/api/session',
        headers: { ...CSRF, cookie: calCookie },
      });
      expect(out.statusCode).toBe(204);
      server.clock.advance(1000);
      const adaCookie = (await login(server.app, 'ada@example.com')).cookie ?? '';

      const events = await list(server, adaCookie);
      expect(events.map((e) => ({ ...e, id: typeof e.id }))).toEqual([
        {
          id: 'string',
          at: at(4),
          kind: 'sign-in',
          userId: ada.id,
          email: null,
          actorId: null,
          address: '127.0.0.1',
          userAgent: 'lightMyRequest',
          detail: null,
        },
        expect.objectContaining({ at: at(3), kind: 'sign-out', userId: cal.id }),
        expect.objectContaining({ at: at(2), kind: 'sign-in', userId: cal.id }),
        // an unknown address is kept as it was tried, normalised
        expect.objectContaining({
          at: at(1),
          kind: 'sign-in-failed',
          userId: null,
          email: 'nobody@example.com',
        }),
        {
          id: 'string',
          at: at(0),
          kind: 'sign-in-failed',
          userId: cal.id,
          email: 'cal@example.com',
          actorId: null,
          address: '127.0.0.1',
          userAgent: 'Script/1.0',
          detail: null,
        },
      ]);
      // never a password
      expect(JSON.stringify(events)).not.toContain('wrong guess');
      // a sign-out without a session is no one's
      await checkedInject(server.app, server.model, { method: 'DELETE', url: '/api/session', headers: CSRF });
      expect(await list(server, adaCookie)).toHaveLength(5);
    });

    it('lists for admins only, newest first, by kind, by user and by page', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const ada = await givenUser(server, 'ada@example.com', ['admin']);
      const cal = await givenUser(server, 'cal@example.com', ['clerk']);
      const calCookie = (await login(server.app, 'cal@example.com')).cookie ?? '';
      server.clock.advance(1000);
      await login(server.app, 'cal@example.com', 'a wrong guess');
      server.clock.advance(1000);
      const adaCookie = (await login(server.app, 'ada@example.com')).cookie ?? '';

      const refused = await get(server, calCookie, '/api/admin/auth-events');
      expect(problem(refused).code).toBe('E_FORBIDDEN');
      const signedOut = await get(server, '', '/api/admin/auth-events');
      expect(problem(signedOut).code).toBe('E_UNAUTHENTICATED');

      const kinds = (events: WireAuthEvent[]) => events.map((e) => [e.kind, e.userId]);
      expect(kinds(await list(server, adaCookie))).toEqual([
        ['sign-in', ada.id],
        ['sign-in-failed', cal.id],
        ['sign-in', cal.id],
      ]);
      expect(kinds(await list(server, adaCookie, '?kind=sign-in'))).toEqual([
        ['sign-in', ada.id],
        ['sign-in', cal.id],
      ]);
      expect(kinds(await list(server, adaCookie, `?user=${cal.id}`))).toEqual([
        ['sign-in-failed', cal.id],
        ['sign-in', cal.id],
      ]);
      const first = await list(server, adaCookie, '?limit=2');
      expect(kinds(first)).toEqual([
        ['sign-in', ada.id],
        ['sign-in-failed', cal.id],
      ]);
      expect(kinds(await list(server, adaCookie, `?limit=2&before=${first[1]?.id}`))).toEqual([
        ['sign-in', cal.id],
      ]);

      for (const query of ['?kind=lunch', '?limit=0', '?user=%00', `?before=${cal.id}`, '?before=x']) {
        const bad = await get(server, adaCookie, `/api/admin/auth-events${query}`);
        expect(problem(bad).code, query).toBe('E_INVALID_QUERY');
      }
    });
  });
}
