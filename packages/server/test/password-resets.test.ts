/**
 * Password reset (decision 0037), on every database, through the real server and a real SMTP
 * server: the same answer for known and unknown addresses, a 30-minute single-use link mailed to a
 * known one, every session ended on success, rate limits per client and per address, and no route
 * at all when the spec turns reset off.
 */
import {
  INVITATION_KEY,
  type InvitationAnswer,
  type MfaChallengeAnswer,
  type MfaEnrolment,
  type WireInvitation,
  type WireSession,
} from '@ninefold/model';
import { Secret, TOTP } from 'otpauth';
import { DIALECTS, PASSWORD, givenUser, login, problem, sessionCookie } from '@ninefold/testkit';
import { describe, expect, it } from 'vitest';
import { PER_ADDRESS, PER_EMAIL, TABLES, disableUser } from '../src/index.js';
import { PUBLIC_URL, identityWorld, peopleModel, tokenIn } from './identity-world.js';

const NEW_PASSWORD = 'a long and private phrase';

for (const dialect of DIALECTS) {
  describe(`${dialect}: password reset`, () => {
    it('answers known and unknown addresses alike; the known one gets a link that resets and ends every session', async () => {
      const w = await identityWorld(dialect, peopleModel());
      const ann = await w.signedIn('ann@example.com', ['staff']);
      const annElsewhere = (await login(w.server.app, 'ann@example.com')).cookie ?? '';

      const known = await w.call('POST', '/api/password-resets', { payload: { email: ' Ann@Example.com' } });
      const unknown = await w.call('POST', '/api/password-resets', {
        payload: { email: 'nobody@example.com' },
      });
      expect([known.statusCode, known.body]).toEqual([202, '{}']);
      expect([unknown.statusCode, unknown.body]).toEqual([known.statusCode, known.body]);
      expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());

      await w.runJobs();
      expect(w.received.map((mail) => mail.to && !Array.isArray(mail.to) && mail.to.text)).toEqual([
        'ann@example.com',
      ]);
      const [mail] = w.mailsTo('ann@example.com');
      expect(mail?.subject).toBe('Reset your Pine Desk password');
      expect(mail?.text).toContain('30 minutes');
      expect(mail?.text).toContain('If this was not you, ignore this mail');
      expect(mail?.text).toContain(`${PUBLIC_URL}/link#token=`);
      const token = tokenIn(mail?.text ?? '');
      expect((await w.call('POST', '/api/links/inspect', { payload: { token } })).json()).toMatchObject({
        purpose: 'password-reset',
        email: 'ann@example.com',
      });

      // the policy holds, with the address's words: the link still works after a refusal
      const near = await w.call('POST', '/api/password-resets/complete', {
        payload: { token, password: 'example-2026' },
      });
      expect(problem(near).errors?.[0]).toMatchObject({ field: 'password', code: 'E_PASSWORD_CONTEXT' });
      const done = await w.call('POST', '/api/password-resets/complete', {
        payload: { token, password: NEW_PASSWORD },
      });
      expect(done.statusCode).toBe(200);
      expect(done.json().user.email).toBe('ann@example.com');
      // both earlier sessions are over; the new one works; only the new password signs in
      for (const cookie of [ann, annElsewhere]) {
        expect(problem(await w.call('GET', '/api/session', { cookie })).status).toBe(401);
      }
      expect((await w.call('GET', '/api/session', { cookie: sessionCookie(done) })).statusCode).toBe(200);
      expect((await login(w.server.app, 'ann@example.com')).response.statusCode).toBe(401);
      expect((await login(w.server.app, 'ann@example.com', NEW_PASSWORD)).response.statusCode).toBe(200);
      expect(
        problem(
          await w.call('POST', '/api/password-resets/complete', {
            payload: { token, password: 'another long one' },
          }),
        ),
      ).toMatchObject({ status: 410, code: 'E_LINK_USED' });

      const events = await w.server.database.db
        .selectFrom(TABLES.authEvents)
        .select(['kind', 'email', 'detail'])
        .where('kind', 'like', 'password-reset-%')
        .orderBy('at')
        .orderBy('kind', 'desc')
        .orderBy('email')
        .execute();
      expect(events.map((e) => [e['kind'], e['email']])).toEqual([
        ['password-reset-requested', 'ann@example.com'],
        ['password-reset-requested', 'nobody@example.com'],
        ['password-reset-completed', 'ann@example.com'],
      ]);
      expect(JSON.stringify(events)).not.toContain(token);
    });

    it('works for 30 minutes, once; a newer request revokes the older link', async () => {
      const w = await identityWorld(dialect, peopleModel());
      await givenUser(w.server, 'ann@example.com', ['staff']);
      const ask = () => w.call('POST', '/api/password-resets', { payload: { email: 'ann@example.com' } });
      await ask();
      await w.runJobs();
      w.server.clock.advance(60_000);
      await ask();
      await w.runJobs();
      const [older, newer] = w.mailsTo('ann@example.com').map((mail) => tokenIn(mail.text ?? ''));
      const complete = (token: string | undefined) =>
        w.call('POST', '/api/password-resets/complete', { payload: { token, password: NEW_PASSWORD } });
      expect(problem(await complete(older))).toMatchObject({ status: 410, code: 'E_LINK_EXPIRED' });

      w.server.clock.advance(30 * 60_000);
      expect(problem(await complete(newer))).toMatchObject({ status: 410, code: 'E_LINK_EXPIRED' });
      expect(problem(await complete('not-a-link'))).toMatchObject({ status: 404, code: 'E_LINK_INVALID' });
      expect((await login(w.server.app, 'ann@example.com', PASSWORD)).response.statusCode).toBe(200);
    });

    it('mails nothing to a disabled user, and refuses their link if they were disabled after asking', async () => {
      const w = await identityWorld(dialect, peopleModel());
      await givenUser(w.server, 'ann@example.com', ['staff']);
      await givenUser(w.server, 'dan@example.com', ['staff']);
      await w.call('POST', '/api/password-resets', { payload: { email: 'ann@example.com' } });
      await disableUser(w.server.database, w.server.model, 'dan@example.com');
      await w.call('POST', '/api/password-resets', { payload: { email: 'dan@example.com' } });
      await w.runJobs();
      expect(w.mailsTo('dan@example.com')).toEqual([]);
      const token = tokenIn(w.mailsTo('ann@example.com')[0]?.text ?? '');
      await disableUser(w.server.database, w.server.model, 'ann@example.com');
      const refused = await w.call('POST', '/api/password-resets/complete', {
        payload: { token, password: NEW_PASSWORD },
      });
      expect(problem(refused)).toMatchObject({ status: 410, code: 'E_LINK_EXPIRED' });
      expect(refused.cookies).toEqual([]);
    });

    it('lets an invitee who lost their invitation in by a reset, and their invitation stops waiting', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      const ada = await w.signedIn('ada@example.com', ['admin']);
      const created = await w.call('POST', '/api/users', {
        cookie: ada,
        payload: { email: 'zoe@example.com', name: 'Zoe', roles: ['staff'] },
      });
      const invitation = created.json()[INVITATION_KEY] as InvitationAnswer;
      await w.call('POST', '/api/password-resets', { payload: { email: 'zoe@example.com' } });
      await w.runJobs();
      const [mail] = await w.server.database.db.selectFrom(TABLES.mailOutbox).select('text').execute();
      const done = await w.call('POST', '/api/password-resets/complete', {
        payload: { token: tokenIn(String(mail?.['text'])), password: NEW_PASSWORD },
      });
      expect(done.statusCode).toBe(200);
      const listed = (await w.call('GET', '/api/invitations', { cookie: ada })).json()
        .data as WireInvitation[];
      expect(listed.map((i) => i.state)).toEqual(['revoked']);
      const accept = await w.call('POST', '/api/invitations/accept', {
        payload: { token: tokenIn(invitation.link ?? ''), password: 'yet another long phrase' },
      });
      expect(problem(accept)).toMatchObject({ status: 410, code: 'E_LINK_EXPIRED' });
    });

    it('limits requests per address asked for and per client, alike for known and unknown addresses', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      await givenUser(w.server, 'ann@example.com', ['staff']);
      const ask = (email: string, address: string) =>
        w.call('POST', '/api/password-resets', { payload: { email }, address });
      for (const email of ['ann@example.com', 'nobody@example.com']) {
        for (let i = 0; i < PER_EMAIL; i += 1)
          expect((await ask(email, `198.51.100.${i + 1}`)).statusCode).toBe(202);
        // from yet another client: the address has had its mail
        const refused = await ask(email, '198.51.100.99');
        expect(problem(refused)).toMatchObject({ status: 429, code: 'E_RATE_LIMITED' });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      }
      await w.runJobs();
      expect(
        (await w.server.database.db.selectFrom(TABLES.mailOutbox).select('to_address').execute()).map(
          (m) => m['to_address'],
        ),
      ).toEqual(['ann@example.com']); // each request revoked the one before: only the last is mailed

      // one client, many addresses
      for (let i = 0; i < PER_ADDRESS; i += 1)
        expect((await ask(`x${i}@example.com`, '203.0.113.7')).statusCode).toBe(202);
      expect(problem(await ask('y@example.com', '203.0.113.7'))).toMatchObject({ status: 429 });
      expect((await ask('y@example.com', '203.0.113.8')).statusCode).toBe(202);
      // the windows end
      w.server.clock.advance(15 * 60_000);
      expect((await ask('ann@example.com', '203.0.113.7')).statusCode).toBe(202);
    });

    it('does not get past a second factor: with it on, the reset asks for a code before signing in', async () => {
      const w = await identityWorld(dialect, peopleModel());
      const ann = await w.signedIn('ann@example.com', ['staff']);
      const code = (secret: string) =>
        new TOTP({ secret: Secret.fromBase32(secret) }).generate({
          timestamp: w.server.clock.now().getTime(),
        });
      const enrolment = await w.call('POST', '/api/account/mfa', {
        cookie: ann,
        payload: { currentPassword: PASSWORD },
      });
      const { secret } = enrolment.json<MfaEnrolment>();
      const confirmed = await w.call('POST', '/api/account/mfa/confirm', {
        cookie: ann,
        payload: { code: code(secret) },
      });
      expect(confirmed.statusCode).toBe(200);
      w.server.clock.advance(60_000); // the next code, not the one confirmation spent

      await w.call('POST', '/api/password-resets', { payload: { email: 'ann@example.com' } });
      await w.runJobs();
      const token = tokenIn(w.mailsTo('ann@example.com')[0]?.text ?? '');
      const done = await w.call('POST', '/api/password-resets/complete', {
        payload: { token, password: NEW_PASSWORD },
      });
      // the password is set and every session ended, but the link alone opens none
      expect(done.statusCode).toBe(202);
      expect(sessionCookie(done)).toBeUndefined();
      const { challenge } = done.json<MfaChallengeAnswer>().mfa;
      const signedIn = await w.call('POST', '/api/session/mfa', {
        payload: { challenge, code: code(secret) },
      });
      expect(signedIn.statusCode).toBe(200);
      const sessions = await w.call('GET', '/api/account/sessions', { cookie: sessionCookie(signedIn) });
      expect(sessions.json<{ data: WireSession[] }>().data).toEqual([
        expect.objectContaining({ current: true, method: 'password-reset' }),
      ]);
    });

    it('has no route when the spec turns reset off', async () => {
      const w = await identityWorld(dialect, peopleModel({ passwordReset: false }), { smtp: false });
      await givenUser(w.server, 'ann@example.com', ['staff']);
      const response = await w.call('POST', '/api/password-resets', {
        payload: { email: 'ann@example.com' },
      });
      expect(problem(response)).toMatchObject({ status: 404, code: 'E_ROUTE_NOT_FOUND' });
    });
  });
}
