/**
 * Recent authentication and one's own e-mail through the real server (decision 0042), on SQLite and
 * PostgreSQL, with the test's clock: ending sessions, making an API token and changing one's e-mail
 * work right after signing in, are refused (E_REAUTH_REQUIRED) ten minutes later and work again
 * after `POST session/confirm` with the password or a code; wrong confirmations count as failed
 * sign-ins; a token never passes. A changed e-mail is normalised, unique, audited and noted to the
 * old address by a real SMTP server; one's own e-mail cannot change through the User resource,
 * while an admin changes another user's there.
 */
import { type Auth, DEFAULT_AUTH, type MfaEnrolment, type Model, SESSION_COOKIE } from '@ninefold/model';
import {
  CSRF,
  DIALECTS,
  PASSWORD,
  checkedInject,
  givenUser,
  login,
  problem,
  specModel,
} from '@ninefold/testkit';
import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { TABLES } from '../src/index.js';
import { RECENT_AUTHENTICATION_MS } from '../src/auth/recent-authentication.js';
import { type IdentityWorld, PEOPLE, identityWorld, recipient } from './identity-world.js';

/** The people product, whose staff may change their own name and e-mail (customers may not). */
const SPEC = PEOPLE.replace(
  '    User: { read: true }',
  `    User: { read: true, update: "id == user.id", fields: { write: [name, email] } }`,
);

function peopleModel(auth: Partial<Auth> = {}): Model {
  return { ...specModel(SPEC), auth: { ...DEFAULT_AUTH, ...auth } };
}

const ANN = 'ann@example.com';
const PAST_RECENT = RECENT_AUTHENTICATION_MS + 1_000;

const hashOf = (cookie: string) =>
  createHash('sha256')
    .update(cookie.slice(SESSION_COOKIE.length + 1))
    .digest('hex');

/** Ann (staff, who may hold tokens) signed in twice: a laptop and a phone. */
async function annTwice(w: IdentityWorld): Promise<{ laptop: string; phone: string }> {
  const laptop = await w.signedIn(ANN, ['staff']);
  const phone = (await login(w.server.app, ANN)).cookie ?? '';
  return { laptop, phone };
}

/** The guarded changes, each as Ann's laptop would make it. */
function guarded(w: IdentityWorld, laptop: string, phone: string) {
  return {
    'end another session': () =>
      w.call('DELETE', `/api/account/sessions/${hashOf(phone)}`, { cookie: laptop }),
    'end all other sessions': () => w.call('DELETE', '/api/account/sessions', { cookie: laptop }),
    'make an API token': () =>
      w.call('POST', '/api/tokens', { cookie: laptop, payload: { name: 'CI', roles: ['staff'] } }),
    'change the e-mail': () =>
      w.call('PUT', '/api/account/email', { cookie: laptop, payload: { email: 'ann@example.org' } }),
  } as const;
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: recent authentication`, () => {
    for (const change of [
      'end another session',
      'end all other sessions',
      'make an API token',
      'change the e-mail',
    ] as const) {
      it(`lets a fresh session ${change}, refuses it ten minutes on, and allows it after a confirmation`, async () => {
        const w = await identityWorld(dialect, peopleModel({ tokens: ['staff'] }), { smtp: false });
        const { laptop, phone } = await annTwice(w);
        const attempt = guarded(w, laptop, phone)[change];

        w.server.clock.advance(PAST_RECENT);
        const stale = await attempt();
        expect(stale.statusCode, stale.body).toBe(403);
        expect(problem(stale).code).toBe('E_REAUTH_REQUIRED');
        // nothing happened: the phone is still signed in, no token, the address unchanged
        expect((await w.call('GET', '/api/session', { cookie: phone })).statusCode).toBe(200);
        expect(await w.server.database.db.selectFrom(TABLES.apiTokens).selectAll().execute()).toEqual([]);
        expect((await w.call('GET', '/api/session', { cookie: laptop })).json()).toMatchObject({
          user: { email: ANN },
        });

        const confirmed = await w.call('POST', '/api/session/confirm', {
          cookie: laptop,
          payload: { password: PASSWORD },
        });
        expect(confirmed.statusCode, confirmed.body).toBe(204);
        const allowed = await attempt();
        expect(allowed.statusCode, allowed.body).toBeLessThan(300);

        // and it lasts ten minutes from the confirmation, not from the sign-in
        w.server.clock.advance(PAST_RECENT);
        await w.call('POST', '/api/session/confirm', { cookie: phone, payload: { password: PASSWORD } });
        const later = await w.call('PUT', '/api/account/email', {
          cookie: laptop,
          payload: { email: 'ann@example.net' },
        });
        expect(later.statusCode).toBe(403);
        expect(problem(later).code).toBe('E_REAUTH_REQUIRED');
      });
    }

    it('lets a fresh session make every guarded change at once', async () => {
      const w = await identityWorld(dialect, peopleModel({ tokens: ['staff'] }), { smtp: false });
      const { laptop, phone } = await annTwice(w);
      const changes = guarded(w, laptop, phone);
      w.server.clock.advance(RECENT_AUTHENTICATION_MS - 1_000);
      expect((await changes['make an API token']()).statusCode).toBe(201);
      expect((await changes['change the e-mail']()).statusCode).toBe(204);
      expect((await changes['end another session']()).statusCode).toBe(204);
      expect((await changes['end all other sessions']()).statusCode).toBe(204);
    });

    it('signs out of this very session without asking, however long ago the sign-in was', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      const { laptop } = await annTwice(w);
      w.server.clock.advance(PAST_RECENT);
      const out = await w.call('DELETE', `/api/account/sessions/${hashOf(laptop)}`, { cookie: laptop });
      expect(out.statusCode, out.body).toBe(204);
      expect((await w.call('GET', '/api/session', { cookie: laptop })).statusCode).toBe(401);
    });

    it('refuses a wrong confirmation and counts it with the sign-ins of the account', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      const { laptop } = await annTwice(w);
      w.server.clock.advance(PAST_RECENT);
      const confirm = (password: string) =>
        w.call('POST', '/api/session/confirm', { cookie: laptop, payload: { password } });
      for (let i = 0; i < 4; i++) {
        const wrong = await confirm('a wrong guess');
        expect(wrong.statusCode).toBe(422);
        expect(problem(wrong).code).toBe('E_WRONG_PASSWORD');
      }
      // four failures: the right password waits too, and so does a sign-in of the account
      const held = await confirm(PASSWORD);
      expect(held.statusCode).toBe(429);
      expect(problem(held).code).toBe('E_RATE_LIMITED');
      expect((await login(w.server.app, ANN)).response.statusCode).toBe(429);
      const stale = await w.call('DELETE', '/api/account/sessions', { cookie: laptop });
      expect(problem(stale).code).toBe('E_REAUTH_REQUIRED');

      w.server.clock.advance(2_000);
      expect((await confirm(PASSWORD)).statusCode).toBe(204);
      expect((await w.call('DELETE', '/api/account/sessions', { cookie: laptop })).statusCode).toBe(204);
    });

    it('reads a confirmation of exactly a password or a code', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      const { laptop } = await annTwice(w);
      const confirm = (payload: object) =>
        w.call('POST', '/api/session/confirm', { cookie: laptop, payload });
      const both = await confirm({ password: PASSWORD, code: '123456' });
      expect(both.statusCode).toBe(422);
      expect(problem(both).code).toBe('E_VALIDATION');
      const other = await confirm({ password: PASSWORD, roles: ['admin'] });
      expect(problem(other).errors?.map((e) => e.code)).toEqual(['E_UNKNOWN_FIELD']);
      expect(problem(await confirm({ password: 42 })).errors?.map((e) => e.code)).toEqual(['E_TYPE']);
      // a code without a second factor is a wrong code
      const code = await confirm({ code: '123456' });
      expect(code.statusCode).toBe(422);
      expect(problem(code).code).toBe('E_MFA_CODE');
      const signedOut = await w.call('POST', '/api/session/confirm', { payload: { password: PASSWORD } });
      expect(signedOut.statusCode).toBe(401);
    });

    it('confirms with a code of the second factor, or a recovery code, once each', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      const { laptop } = await annTwice(w);
      const enrolled = await w.call('POST', '/api/account/mfa', {
        cookie: laptop,
        payload: { currentPassword: PASSWORD },
      });
      const { secret } = enrolled.json<MfaEnrolment>();
      const totp = new TOTP({ secret: Secret.fromBase32(secret) });
      const codeNow = () => totp.generate({ timestamp: w.server.clock.now().getTime() });
      const on = await w.call('POST', '/api/account/mfa/confirm', {
        cookie: laptop,
        payload: { code: codeNow() },
      });
      expect(on.statusCode, on.body).toBe(200);
      const [recovery] = on.json<{ recoveryCodes: string[] }>().recoveryCodes;

      w.server.clock.advance(PAST_RECENT);
      const confirm = (code: string) =>
        w.call('POST', '/api/session/confirm', { cookie: laptop, payload: { code } });
      const code = codeNow();
      expect((await confirm(code)).statusCode).toBe(204);
      expect((await w.call('DELETE', '/api/account/sessions', { cookie: laptop })).statusCode).toBe(204);

      w.server.clock.advance(PAST_RECENT);
      // a code replayed within its step is refused; a recovery code works, once
      expect(problem(await confirm(code)).code).toBe('E_MFA_CODE');
      expect((await confirm(recovery ?? '')).statusCode).toBe(204);
      w.server.clock.advance(PAST_RECENT);
      expect(problem(await confirm(recovery ?? '')).code).toBe('E_MFA_CODE');
    });

    it('never lets an API token pass, nor confirm', async () => {
      const w = await identityWorld(dialect, peopleModel({ tokens: ['staff'] }), { smtp: false });
      const { laptop } = await annTwice(w);
      const made = await w.call('POST', '/api/tokens', {
        cookie: laptop,
        payload: { name: 'CI', roles: ['staff'] },
      });
      const token = made.json<{ token: string }>().token;
      const bearer = (method: string, url: string, payload?: object) =>
        w.server.app.inject({
          method: method as 'POST',
          url,
          headers: { authorization: `Bearer ${token}` },
          ...(payload === undefined ? {} : { payload }),
        });
      const another = await bearer('POST', '/api/tokens', { name: 'More', roles: ['staff'] });
      expect(another.statusCode).toBe(403);
      const confirm = await bearer('POST', '/api/session/confirm', { password: PASSWORD });
      expect(confirm.statusCode).toBe(403);
      expect(problem(confirm).code).toBe('E_FORBIDDEN');
      const email = await bearer('PUT', '/api/account/email', { email: 'ann@example.org' });
      expect(email.statusCode).toBe(403);
      const users = await w.server.database.db.selectFrom('users').select('email').execute();
      expect(users.map((u) => u.email)).toEqual([ANN]);
    });
  });

  describe(`${dialect}: own e-mail`, () => {
    it('changes it normalised, records it, notes it to the old address and signs in with the new one', async () => {
      const w = await identityWorld(dialect, peopleModel());
      const ann = await w.signedIn(ANN, ['staff']);
      const changed = await w.call('PUT', '/api/account/email', {
        cookie: ann,
        payload: { email: '  Ann@Example.ORG ' },
      });
      expect(changed.statusCode, changed.body).toBe(204);
      expect((await w.call('GET', '/api/session', { cookie: ann })).json()).toMatchObject({
        user: { email: 'ann@example.org' },
      });
      expect((await login(w.server.app, ANN)).response.statusCode).toBe(401);
      expect((await login(w.server.app, 'ann@example.org')).response.statusCode).toBe(200);

      const events = await w.server.database.db
        .selectFrom(TABLES.authEvents)
        .select(['kind', 'detail'])
        .where('kind', '=', 'email-changed')
        .execute();
      expect(events.map((e) => [e.kind, JSON.parse(String(e.detail))])).toEqual([
        ['email-changed', { from: ANN, to: 'ann@example.org' }],
      ]);

      await w.runJobs();
      expect(w.received.map(recipient)).toEqual([ANN]);
      const [note] = w.mailsTo(ANN);
      expect(note?.subject).toBe('Your Pine Desk e-mail address was changed');
      expect(note?.text).toContain('ann@example.org');
      expect(note?.text).not.toMatch(/https?:\/\//);
    });

    it('refuses an address taken by another user, or not an address', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      const ann = await w.signedIn(ANN, ['staff']);
      await givenUser(w.server, 'bob@example.com', ['staff']);
      const taken = await w.call('PUT', '/api/account/email', {
        cookie: ann,
        payload: { email: 'BOB@example.com' },
      });
      expect(taken.statusCode).toBe(409);
      expect(problem(taken).code).toBe('E_UNIQUE');
      const bad = await w.call('PUT', '/api/account/email', {
        cookie: ann,
        payload: { email: 'ann at home' },
      });
      expect(bad.statusCode).toBe(422);
      expect(problem(bad).errors?.map((e) => [e.field, e.code])).toEqual([['email', 'E_FORMAT']]);
      const extra = await w.call('PUT', '/api/account/email', {
        cookie: ann,
        payload: { email: 'ann@example.org', roles: ['admin'] },
      });
      expect(problem(extra).errors?.map((e) => [e.field, e.code])).toEqual([['roles', 'E_UNKNOWN_FIELD']]);
      const events = await w.server.database.db
        .selectFrom(TABLES.authEvents)
        .select('kind')
        .where('kind', '=', 'email-changed')
        .execute();
      expect(events).toEqual([]);
    });

    it('refuses a user whose role may not change their e-mail', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      const carl = await w.signedIn('carl@example.com', ['customer']);
      const refused = await w.call('PUT', '/api/account/email', {
        cookie: carl,
        payload: { email: 'carl@example.org' },
      });
      expect(refused.statusCode).toBe(403);
      expect(problem(refused).code).toBe('E_FORBIDDEN');
      expect((await w.call('GET', '/api/session', { cookie: carl })).json()).toMatchObject({
        user: { email: 'carl@example.com' },
      });
    });

    it('refuses one’s own e-mail through the User resource too, with the page to change it on', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      const ann = await w.signedIn(ANN, ['staff']);
      const id = (await w.call('GET', '/api/session', { cookie: ann })).json<{ user: { id: string } }>().user
        .id;
      const patch = (payload: object) =>
        checkedInject(w.server.app, w.model, {
          method: 'PATCH',
          url: `/api/users/${id}`,
          headers: { ...CSRF, cookie: ann, 'if-match': '"1"' },
          payload,
        });
      const own = await patch({ email: 'ann@example.org' });
      expect(own.statusCode).toBe(403);
      expect(problem(own).code).toBe('E_OWN_EMAIL');
      expect(problem(own).message).toContain('/account');
      // the same address, as typed differently, is no change
      expect((await patch({ email: ' ANN@example.com', name: 'Ann B.' })).statusCode).toBe(200);
    });

    it('refuses one’s own e-mail through the User resource, and lets an admin change another’s', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      const admin = await w.signedIn('ada@example.com', ['admin']);
      const adaId = (await w.call('GET', '/api/session', { cookie: admin })).json<{ user: { id: string } }>()
        .user.id;
      const bob = await givenUser(w.server, 'bob@example.com', ['staff']);

      const patch = (id: string, payload: object, version = 1) =>
        checkedInject(w.server.app, w.model, {
          method: 'PATCH',
          url: `/api/users/${id}`,
          headers: { ...CSRF, cookie: admin, 'if-match': `"${version}"` },
          payload,
        });
      const own = await patch(adaId, { email: 'ada@example.org' });
      expect(own.statusCode).toBe(403);
      expect(problem(own).code).toBe('E_OWN_EMAIL');
      // the rest of one's own record still changes there
      const name = await patch(adaId, { name: 'Ada L.' });
      expect(name.statusCode, name.body).toBe(200);

      const other = await patch(bob.id, { email: 'Bob@Example.org' });
      expect(other.statusCode, other.body).toBe(200);
      expect(other.json()).toMatchObject({ email: 'bob@example.org' });
    });
  });
}
