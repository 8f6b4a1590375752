/**
 * Sign-up (decision 0037), on every database, through the real server and a real SMTP server: the
 * account exists only once its address is checked by a 24-hour link; a taken address gets a note
 * to its owner and the same answer; bad input answers 422 alike for new and taken addresses; the
 * domains the spec allows; rate limits; and no route when the spec does not let people sign up.
 */
import { DIALECTS, PASSWORD, givenUser, login, problem, sessionCookie } from '@ninefold/testkit';
import { describe, expect, it } from 'vitest';
import { PER_EMAIL, TABLES } from '../src/index.js';
import { PUBLIC_URL, identityWorld, peopleModel, tokenIn } from './identity-world.js';

const NEW_PASSWORD = 'a long and private phrase';
const HOUR_MS = 3_600_000;

for (const dialect of DIALECTS) {
  describe(`${dialect}: sign-up`, () => {
    it('checks a new address by a link, then opens the account with the sign-up role and signs in', async () => {
      const w = await identityWorld(dialect, peopleModel({ signUp: 'customer' }));
      const asked = await w.call('POST', '/api/sign-ups', {
        payload: { email: 'Nia@Example.com', password: NEW_PASSWORD, name: 'Nia <b>' },
      });
      expect([asked.statusCode, asked.body]).toEqual([202, '{}']);
      // no account before the address is checked: nobody can sign in with it
      expect(await w.server.database.db.selectFrom('users').selectAll().execute()).toEqual([]);
      expect((await login(w.server.app, 'nia@example.com', NEW_PASSWORD)).response.statusCode).toBe(401);
      // the link keeps the password's argon2id hash, never the password
      const [link] = await w.server.database.db.selectFrom(TABLES.links).select('payload').execute();
      expect(String(link?.['payload'])).toContain('$argon2id$');
      expect(String(link?.['payload'])).not.toContain(NEW_PASSWORD);

      await w.runJobs();
      const [mail] = w.mailsTo('nia@example.com');
      expect(mail?.subject).toBe('Confirm your e-mail address for Pine Desk');
      expect(mail?.text).toContain('24 hours');
      expect(mail?.text).toContain('If this was not you, ignore this mail');
      expect(mail?.text).toContain(`${PUBLIC_URL}/link#token=`);
      const token = tokenIn(mail?.text ?? '');
      expect((await w.call('POST', '/api/links/inspect', { payload: { token } })).json()).toMatchObject({
        purpose: 'sign-up',
        email: 'nia@example.com',
      });

      const verified = await w.call('POST', '/api/sign-ups/verify', { payload: { token } });
      expect(verified.statusCode).toBe(200);
      expect(verified.json().user).toMatchObject({
        email: 'nia@example.com',
        name: 'Nia <b>',
        roles: ['customer'],
      });
      expect((await w.call('GET', '/api/session', { cookie: sessionCookie(verified) })).statusCode).toBe(200);
      expect((await login(w.server.app, 'nia@example.com', NEW_PASSWORD)).response.statusCode).toBe(200);
      expect(problem(await w.call('POST', '/api/sign-ups/verify', { payload: { token } }))).toMatchObject({
        status: 410,
        code: 'E_LINK_USED',
      });
      const events = await w.server.database.db
        .selectFrom(TABLES.authEvents)
        .select(['kind', 'email'])
        .where('kind', 'like', 'sign-up-%')
        .orderBy('kind')
        .execute();
      expect(events).toEqual([
        { kind: 'sign-up-requested', email: 'nia@example.com' },
        { kind: 'sign-up-verified', email: 'nia@example.com' },
      ]);
    });

    it('answers a taken address as a new one, and tells its owner instead of opening an account', async () => {
      const w = await identityWorld(dialect, peopleModel({ signUp: 'customer' }));
      await givenUser(w.server, 'ann@example.com', ['staff']);
      const body = (email: string) => ({ email, password: NEW_PASSWORD, name: 'Someone' });
      const taken = await w.call('POST', '/api/sign-ups', { payload: body('ann@example.com') });
      const fresh = await w.call('POST', '/api/sign-ups', { payload: body('new@example.com') });
      expect([taken.statusCode, taken.body]).toEqual([fresh.statusCode, fresh.body]);
      expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(fresh.headers).sort());
      // one job each: the same work
      const jobs = await w.server.database.db.selectFrom(TABLES.jobs).select('kind').execute();
      expect(jobs).toHaveLength(2);

      await w.runJobs();
      const [note] = w.mailsTo('ann@example.com');
      expect(note?.subject).toBe('Someone tried to sign up to Pine Desk with your address');
      expect(note?.text).toContain(`${PUBLIC_URL}/forgot-password`);
      expect(note?.text).toContain(`${PUBLIC_URL}/sign-in`);
      expect(note?.text).not.toContain('/link#token=');
      // Ann's account is as it was
      expect((await login(w.server.app, 'ann@example.com', PASSWORD)).response.statusCode).toBe(200);
      expect((await login(w.server.app, 'ann@example.com', NEW_PASSWORD)).response.statusCode).toBe(401);

      // bad input: the same 422 for the taken and the new address
      const bad = { password: 'password123', name: ' ' };
      const a = await w.call('POST', '/api/sign-ups', { payload: { ...bad, email: 'ann@example.com' } });
      const b = await w.call('POST', '/api/sign-ups', { payload: { ...bad, email: 'new2@example.com' } });
      expect(a.statusCode).toBe(422);
      const issues = (response: typeof a) => problem(response).errors?.map((e) => `${e.field} ${e.code}`);
      expect(issues(a)).toEqual(['name E_REQUIRED', 'password E_PASSWORD_COMMON']);
      expect(issues(b)).toEqual(issues(a));
      // a password built on the address is refused alike
      const near = (email: string) =>
        w.call('POST', '/api/sign-ups', { payload: { email, password: 'example2026', name: 'Someone' } });
      expect(issues(await near('ann@example.com'))).toEqual(['password E_PASSWORD_CONTEXT']);
      expect(issues(await near('new3@example.com'))).toEqual(['password E_PASSWORD_CONTEXT']);
    });

    it('takes only the spec’s domains, alike for new and taken addresses', async () => {
      const w = await identityWorld(
        dialect,
        peopleModel({ signUp: 'customer', signUpDomains: ['example.com'] }),
        {
          smtp: false,
        },
      );
      await givenUser(w.server, 'ann@other.org', ['staff']);
      for (const email of ['ann@other.org', 'bob@other.org']) {
        const refused = await w.call('POST', '/api/sign-ups', {
          payload: { email, password: NEW_PASSWORD, name: 'X' },
        });
        expect(problem(refused)).toMatchObject({ status: 422, code: 'E_VALIDATION' });
        expect(problem(refused).errors).toEqual([
          {
            field: 'email',
            code: 'E_EMAIL_DOMAIN',
            message: 'Only addresses at example.com can sign up here.',
          },
        ]);
      }
      const fine = await w.call('POST', '/api/sign-ups', {
        payload: { email: 'cy@example.com', password: NEW_PASSWORD, name: 'Cy' },
      });
      expect(fine.statusCode).toBe(202);
      expect(await w.server.database.db.selectFrom(TABLES.jobs).select('kind').execute()).toHaveLength(1);
    });

    it('refuses a link whose address got an account meanwhile, and one past its 24 hours', async () => {
      const w = await identityWorld(dialect, peopleModel({ signUp: 'customer' }), { smtp: false });
      const signUp = (email: string) =>
        w.call('POST', '/api/sign-ups', { payload: { email, password: NEW_PASSWORD, name: 'Twin' } });
      await signUp('twin@example.com');
      await signUp('twin@example.com');
      await signUp('late@example.com');
      await w.runJobs();
      const outbox = await w.server.database.db
        .selectFrom(TABLES.mailOutbox)
        .selectAll()
        .orderBy('created_at')
        .execute();
      const tokens = (to: string) =>
        outbox.filter((m) => m['to_address'] === to).map((m) => tokenIn(String(m['text'])));
      // without SMTP_URL, the link starts with the request's own address
      expect(String(outbox[0]?.['text'])).toMatch(/http:\/\/localhost(:80)?\/link#token=/);
      const [first, second] = tokens('twin@example.com');
      const verify = (token: string | undefined) =>
        w.call('POST', '/api/sign-ups/verify', { payload: { token } });
      expect((await verify(second)).statusCode).toBe(200);
      expect(problem(await verify(first))).toMatchObject({ status: 410, code: 'E_LINK_USED' });
      expect(await w.server.database.db.selectFrom('users').select('email').execute()).toHaveLength(1);

      w.server.clock.advance(24 * HOUR_MS);
      expect(problem(await verify(tokens('late@example.com')[0]))).toMatchObject({
        status: 410,
        code: 'E_LINK_EXPIRED',
      });
    });

    it('limits sign-ups per address asked for, from any client', async () => {
      const w = await identityWorld(dialect, peopleModel({ signUp: 'customer' }), { smtp: false });
      const signUp = (address: string) =>
        w.call('POST', '/api/sign-ups', {
          payload: { email: 'nia@example.com', password: NEW_PASSWORD, name: 'Nia' },
          address,
        });
      for (let i = 0; i < PER_EMAIL; i += 1)
        expect((await signUp(`198.51.100.${i + 1}`)).statusCode).toBe(202);
      const refused = await signUp('198.51.100.50');
      expect(problem(refused)).toMatchObject({ status: 429, code: 'E_RATE_LIMITED' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('has no route when the spec does not let people sign up', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      const response = await w.call('POST', '/api/sign-ups', {
        payload: { email: 'nia@example.com', password: NEW_PASSWORD, name: 'Nia' },
      });
      expect(problem(response)).toMatchObject({ status: 404, code: 'E_ROUTE_NOT_FOUND' });
    });
  });
}
