/**
 * Invitations (decision 0037), on every database, through the real server: a user made by an admin
 * gets a 7-day one-time link, mailed through a real SMTP server when SMTP_URL is set and otherwise
 * shown once; the invitee chooses a password and is signed in; admins list, re-send and revoke; only
 * those who may create users may; and the audit trail records each step, never a secret.
 */
import { INVITATION_KEY, type InvitationAnswer, type WireInvitation } from '@ninefold/model';
import { DIALECTS, login, problem, sessionCookie } from '@ninefold/testkit';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TABLES } from '../src/index.js';
import { PUBLIC_URL, identityWorld, peopleModel, tokenIn } from './identity-world.js';

const NEW_PASSWORD = 'a long and private phrase';
const DAY_MS = 86_400_000;

for (const dialect of DIALECTS) {
  describe(`${dialect}: invitations`, () => {
    it('mails a new user a link; they choose a password, are signed in, and the link is spent', async () => {
      const w = await identityWorld(dialect, peopleModel());
      const ada = await w.signedIn('ada@example.com', ['admin']);
      const created = await w.call('POST', '/api/users', {
        cookie: ada,
        payload: { email: 'Zoe@Example.com', name: 'Zoe', roles: ['staff'] },
      });
      expect(created.statusCode).toBe(201);
      const invitation = created.json()[INVITATION_KEY] as InvitationAnswer;
      const adaId = String(
        (
          await w.server.database.db
            .selectFrom('users')
            .select('id')
            .where('email', '=', 'ada@example.com')
            .executeTakeFirstOrThrow()
        )['id'],
      );
      expect(invitation).toMatchObject({
        user: created.json()['id'],
        email: 'zoe@example.com',
        name: 'Zoe',
        state: 'pending',
        mailed: true,
        link: null,
        createdBy: adaId,
        acceptedAt: null,
      });
      expect(Date.parse(invitation.expiresAt) - w.server.clock.now().getTime()).toBe(7 * DAY_MS);

      await w.runJobs();
      const [mail] = w.mailsTo('zoe@example.com');
      expect(mail?.subject).toBe('You are invited to Pine Desk');
      expect(mail?.from?.value).toEqual([{ name: 'Pine Desk', address: 'desk@example.com' }]);
      expect(mail?.text).toContain(`${PUBLIC_URL}/link#token=`);
      expect(mail?.text).toContain('7 days');
      expect(mail?.text).toContain('If this was not you, ignore this mail');
      const token = tokenIn(mail?.text ?? '');
      expect(String(mail?.html)).toContain(`<a href="${PUBLIC_URL}/link#token=${token}">`);

      // the secret is nowhere in the database: the link keeps its SHA-256, the job only the link's id
      const hash = createHash('sha256').update(token).digest('hex');
      const links = await w.server.database.db.selectFrom(TABLES.links).selectAll().execute();
      expect(links.map((l) => l['token_hash'])).toEqual([hash]);
      const everything = JSON.stringify([
        links,
        await w.server.database.db.selectFrom(TABLES.jobs).selectAll().execute(),
        await w.server.database.db.selectFrom(TABLES.authEvents).selectAll().execute(),
      ]);
      expect(everything).not.toContain(token);

      expect((await w.call('POST', '/api/links/inspect', { payload: { token } })).json()).toEqual({
        purpose: 'invitation',
        email: 'zoe@example.com',
        expiresAt: invitation.expiresAt,
      });
      // the policy holds: a common password is refused and the link still works
      const common = await w.call('POST', '/api/invitations/accept', {
        payload: { token, password: 'password123' },
      });
      expect(problem(common)).toMatchObject({ status: 422, code: 'E_VALIDATION' });
      expect(problem(common).errors?.[0]).toMatchObject({ field: 'password', code: 'E_PASSWORD_COMMON' });
      // nor one built on the product's name (or the invitee's address or name)
      const context = await w.call('POST', '/api/invitations/accept', {
        payload: { token, password: 'PineDesk2026' },
      });
      expect(problem(context).errors?.[0]).toMatchObject({ field: 'password', code: 'E_PASSWORD_CONTEXT' });

      const accepted = await w.call('POST', '/api/invitations/accept', {
        payload: { token, password: NEW_PASSWORD },
      });
      expect(accepted.statusCode).toBe(200);
      expect(accepted.json().user).toMatchObject({ email: 'zoe@example.com', roles: ['staff'] });
      const zoe = sessionCookie(accepted);
      expect((await w.call('GET', '/api/session', { cookie: zoe })).json().user.email).toBe(
        'zoe@example.com',
      );
      expect((await login(w.server.app, 'zoe@example.com', NEW_PASSWORD)).response.statusCode).toBe(200);
      const session = await w.server.database.db
        .selectFrom(TABLES.sessions)
        .select('method')
        .where('method', '=', 'invitation')
        .execute();
      expect(session).toHaveLength(1);

      const again = await w.call('POST', '/api/invitations/accept', {
        payload: { token, password: NEW_PASSWORD },
      });
      expect(problem(again)).toMatchObject({ status: 410, code: 'E_LINK_USED' });
      expect(problem(await w.call('POST', '/api/links/inspect', { payload: { token } }))).toMatchObject({
        code: 'E_LINK_USED',
      });
      const list = (await w.call('GET', '/api/invitations', { cookie: ada })).json().data as WireInvitation[];
      expect(list.map((i) => [i.email, i.state, i.acceptedAt])).toEqual([
        ['zoe@example.com', 'accepted', w.server.clock.now().toISOString()],
      ]);

      const events = await w.server.database.db
        .selectFrom(TABLES.authEvents)
        .select(['kind', 'user_id', 'actor_id', 'address'])
        .where('kind', 'like', 'invitation-%')
        .orderBy('kind')
        .execute();
      expect(events).toEqual([
        { kind: 'invitation-accepted', user_id: invitation.user, actor_id: null, address: '127.0.0.1' },
        { kind: 'invitation-created', user_id: invitation.user, actor_id: adaId, address: '127.0.0.1' },
      ]);
    });

    it('without SMTP_URL, shows the link once, built on the request’s own address, and mails nothing', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      const ada = await w.signedIn('ada@example.com', ['admin']);
      const created = await w.call('POST', '/api/users', {
        cookie: ada,
        payload: { email: 'zoe@example.com', name: 'Zoe', roles: ['staff'] },
      });
      const invitation = created.json()[INVITATION_KEY] as InvitationAnswer;
      expect(invitation.mailed).toBe(false);
      expect(invitation.link).toMatch(/^http:\/\/localhost(:80)?\/link#token=[A-Za-z0-9_-]{43}$/);
      expect(await w.runJobs()).toBe(0);
      // the user as read afterwards carries no invitation: it was shown once
      const read = await w.call('GET', `/api/users/${String(created.json()['id'])}`, { cookie: ada });
      expect(read.json()).not.toHaveProperty(INVITATION_KEY);

      const token = tokenIn(invitation.link ?? '');
      const accepted = await w.call('POST', '/api/invitations/accept', {
        payload: { token, password: NEW_PASSWORD },
      });
      expect(accepted.statusCode).toBe(200);
    });

    it('re-sends (the earlier link stops working), revokes, expires after 7 days, and lists by state', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      let ada = await w.signedIn('ada@example.com', ['admin']);
      const make = async (email: string) =>
        (
          await w.call('POST', '/api/users', {
            cookie: ada,
            payload: { email, name: email, roles: ['staff'] },
          })
        ).json()[INVITATION_KEY] as InvitationAnswer;
      const first = await make('zoe@example.com');
      const second = await w.call('POST', '/api/invitations', { cookie: ada, payload: { user: first.user } });
      expect(second.statusCode).toBe(201);
      const resent = second.json() as InvitationAnswer;
      expect(resent.id).not.toBe(first.id);
      const firstToken = tokenIn(first.link ?? '');
      expect(
        problem(await w.call('POST', '/api/links/inspect', { payload: { token: firstToken } })),
      ).toMatchObject({
        status: 410,
        code: 'E_LINK_EXPIRED',
      });

      const yan = await make('yan@example.com');
      expect((await w.call('DELETE', `/api/invitations/${yan.id}`, { cookie: ada })).statusCode).toBe(204);
      expect(
        problem(
          await w.call('POST', '/api/invitations/accept', {
            payload: { token: tokenIn(yan.link ?? ''), password: NEW_PASSWORD },
          }),
        ),
      ).toMatchObject({ code: 'E_LINK_EXPIRED' });
      expect(problem(await w.call('DELETE', '/api/invitations/nothing', { cookie: ada }))).toMatchObject({
        status: 404,
        code: 'E_NOT_FOUND',
      });

      const states = async (state?: string) =>
        (
          (
            await w.call('GET', `/api/invitations${state === undefined ? '' : `?state=${state}`}`, {
              cookie: ada,
            })
          ).json().data as WireInvitation[]
        ).map((i) => `${i.email} ${i.state}`);
      expect(await states()).toEqual([
        'yan@example.com revoked',
        'zoe@example.com pending',
        'zoe@example.com revoked',
      ]);
      expect(await states('pending')).toEqual(['zoe@example.com pending']);

      w.server.clock.advance(7 * DAY_MS);
      // a week later, Ada's session has run out too
      ada = (await login(w.server.app, 'ada@example.com')).cookie ?? '';
      expect(await states('expired')).toEqual(['zoe@example.com expired']);
      expect(await states('pending')).toEqual([]);
      const late = await w.call('POST', '/api/invitations/accept', {
        payload: { token: tokenIn(resent.link ?? ''), password: NEW_PASSWORD },
      });
      expect(problem(late)).toMatchObject({ status: 410, code: 'E_LINK_EXPIRED' });
      expect(problem(await w.call('GET', '/api/invitations?state=lost', { cookie: ada }))).toMatchObject({
        code: 'E_INVALID_QUERY',
      });
      // a new invitation works again after the old one expired
      const third = (
        await w.call('POST', '/api/invitations', { cookie: ada, payload: { user: first.user } })
      ).json();
      const accepted = await w.call('POST', '/api/invitations/accept', {
        payload: { token: tokenIn(third.link), password: NEW_PASSWORD },
      });
      expect(accepted.statusCode).toBe(200);
      // accepted: a user with a password resets it instead, and the accepted invitation stays
      expect(
        problem(await w.call('POST', '/api/invitations', { cookie: ada, payload: { user: first.user } })),
      ).toMatchObject({
        status: 409,
        code: 'E_INVITATION_REFUSED',
      });
      expect(
        problem(await w.call('DELETE', `/api/invitations/${String(third.id)}`, { cookie: ada })),
      ).toMatchObject({
        status: 409,
        code: 'E_INVITATION_REFUSED',
      });
      const revoked = await w.server.database.db
        .selectFrom(TABLES.authEvents)
        .select('actor_id')
        .where('kind', '=', 'invitation-revoked')
        .execute();
      expect(revoked).toHaveLength(1);
    });

    it('is for those who may create users: others are refused, the signed-out too', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      const ada = await w.signedIn('ada@example.com', ['admin']);
      const sam = await w.signedIn('sam@example.com', ['staff']);
      const zoe = (
        await w.call('POST', '/api/users', {
          cookie: ada,
          payload: { email: 'zoe@example.com', name: 'Zoe', roles: ['staff'] },
        })
      ).json()[INVITATION_KEY] as InvitationAnswer;
      expect(problem(await w.call('GET', '/api/invitations', { cookie: sam }))).toMatchObject({
        status: 403,
        code: 'E_FORBIDDEN',
      });
      expect(
        problem(await w.call('POST', '/api/invitations', { cookie: sam, payload: { user: zoe.user } })),
      ).toMatchObject({
        status: 403,
      });
      expect(problem(await w.call('DELETE', `/api/invitations/${zoe.id}`, { cookie: sam }))).toMatchObject({
        status: 403,
      });
      expect(problem(await w.call('GET', '/api/invitations'))).toMatchObject({
        status: 401,
        code: 'E_UNAUTHENTICATED',
      });
      // a role that may create only some users sees, sends and revokes only their invitations
      const lee = await w.signedIn('lee@example.com', ['lead']);
      const cat = (
        await w.call('POST', '/api/users', {
          cookie: lee,
          payload: { email: 'cat@example.com', name: 'Cat', roles: ['customer'] },
        })
      ).json()[INVITATION_KEY] as InvitationAnswer;
      expect(cat.createdBy).not.toBeNull();
      const leeSees = (await w.call('GET', '/api/invitations', { cookie: lee })).json()
        .data as WireInvitation[];
      expect(leeSees.map((i) => i.email)).toEqual(['cat@example.com']);
      expect(
        problem(await w.call('POST', '/api/invitations', { cookie: lee, payload: { user: zoe.user } })),
      ).toMatchObject({
        status: 403,
      });
      expect(problem(await w.call('DELETE', `/api/invitations/${zoe.id}`, { cookie: lee }))).toMatchObject({
        status: 404,
      });
      expect(
        (await w.call('POST', '/api/invitations', { cookie: lee, payload: { user: cat.user } })).statusCode,
      ).toBe(201);
      // nothing changed: Zoe's invitation still waits, and Cat's newest
      const waiting = (await w.call('GET', '/api/invitations?state=pending', { cookie: ada })).json()
        .data as WireInvitation[];
      expect(waiting.map((i) => i.email).sort()).toEqual(['cat@example.com', 'zoe@example.com']);
      // the body is the named fields only: no mass assignment
      expect(
        problem(
          await w.call('POST', '/api/invitations', {
            cookie: ada,
            payload: { user: zoe.user, email: 'x@example.com' },
          }),
        ),
      ).toMatchObject({ status: 422, code: 'E_VALIDATION' });
      expect(
        problem(
          await w.call('POST', '/api/invitations/accept', {
            payload: { token: tokenIn(zoe.link ?? ''), password: NEW_PASSWORD, roles: ['admin'] },
          }),
        ),
      ).toMatchObject({ status: 422, code: 'E_VALIDATION' });
    });
  });
}
