/**
 * The second factor through the real server (decision 0041), on SQLite and PostgreSQL, with codes
 * computed by an authenticator library (`otpauth`) at the test's clock: enrolment needs the
 * password and a code, a sign-in then needs a code, a wrong one is refused and counted, no code
 * works twice, a recovery code works once, turning it off needs the password; a challenge dies
 * after five minutes or five wrong codes; admins end one user's sessions or everyone's.
 */
import { type MfaEnrolment, type RecoveryCodesAnswer } from '@ninefold/model';
import {
  CSRF,
  DIALECTS,
  PASSWORD,
  checkedInject,
  givenUser,
  login,
  problem,
  sessionCookie,
  specModel,
  testServer,
  type TestServer,
} from '@ninefold/testkit';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { addUser, TABLES } from '../src/index.js';
import { startSecondStep } from '../src/auth/mfa/challenges.js';
import { mfaRequired } from '../src/auth/mfa/factor.js';
import { createSession } from '../src/auth/sessions.js';

const SPEC = `
product: { name: Claims }
entities:
  Claim:
    fields:
      title: { type: string, required: true }
roles:
  admin:
    Claim: true
    User:
      read: true
      create: true
      update: true
      delete: false
      fields: { write: [name, email, roles, disabled] }
  employee: { Claim: { read: true, create: true } }
limits: { loginAttemptsPerMinute: 30 }
`;

const STEP_MS = 30_000;

/** The code an authenticator app shows for a secret at the server's clock. */
function codeAt(server: TestServer, secret: string): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({
    timestamp: server.clock.now().getTime(),
  });
}

/** A code of the secret that is not the one shown now nor either side of it. */
function wrongCode(server: TestServer, secret: string): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  const at = server.clock.now().getTime();
  const near = new Set([-1, 0, 1].map((d) => totp.generate({ timestamp: at + d * STEP_MS })));
  for (let n = 0; ; n += 1) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

function call(
  server: TestServer,
  method: string,
  url: string,
  cookie: string | undefined,
  payload?: object,
  remoteAddress?: string,
) {
  return checkedInject(server.app, server.model, {
    method,
    url,
    headers: { ...CSRF, ...(cookie === undefined ? {} : { cookie }) },
    ...(payload === undefined ? {} : { payload }),
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  });
}

/** Signs in and turns the second factor on; the cookie, the secret and the recovery codes. */
async function enrolled(server: TestServer, email: string) {
  const { cookie } = await login(server.app, email);
  const started = await call(server, 'POST', '/api/account/mfa', cookie, { currentPassword: PASSWORD });
  expect(started.statusCode).toBe(200);
  const { secret } = started.json<MfaEnrolment>();
  const confirmed = await call(server, 'POST', '/api/account/mfa/confirm', cookie, {
    code: codeAt(server, secret),
  });
  expect(confirmed.statusCode).toBe(200);
  return { cookie: cookie!, secret, codes: confirmed.json<RecoveryCodesAnswer>().recoveryCodes };
}

/** The password step of a sign-in for a user with the factor on: its challenge. */
async function challengeOf(server: TestServer, email: string): Promise<string> {
  const { response } = await login(server.app, email);
  expect(response.statusCode).toBe(202);
  return response.json<{ mfa: { challenge: string } }>().mfa.challenge;
}

function secondStep(server: TestServer, challenge: string, code: string, remoteAddress?: string) {
  return call(server, 'POST', '/api/session/mfa', undefined, { challenge, code }, remoteAddress);
}

async function eventKinds(server: TestServer): Promise<string[]> {
  const rows = await server.database.db.selectFrom(TABLES.authEvents).select('kind').orderBy('at').execute();
  return rows.map((row) => String(row.kind));
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the second factor`, () => {
    it('enrols with the password and a code, then asks every sign-in for a code, each usable once', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const ann = await givenUser(server, 'ann@example.com', ['employee']);
      const { cookie } = await login(server.app, 'ann@example.com');

      const off = await call(server, 'GET', '/api/account/mfa', cookie);
      expect(off.json()).toEqual({ enabled: false, recoveryCodesLeft: 0, available: true, required: false });

      // re-authentication first (ASVS 5.0 7.5.1)
      const noPassword = await call(server, 'POST', '/api/account/mfa', cookie, {});
      expect(problem(noPassword)).toMatchObject({ status: 422, code: 'E_VALIDATION' });
      const wrongPassword = await call(server, 'POST', '/api/account/mfa', cookie, {
        currentPassword: 'nope',
      });
      expect(problem(wrongPassword)).toMatchObject({ status: 422, code: 'E_WRONG_PASSWORD' });
      const extra = await call(server, 'POST', '/api/account/mfa', cookie, {
        currentPassword: PASSWORD,
        enabled: true,
      });
      expect(problem(extra).errors?.[0]).toMatchObject({ field: 'enabled', code: 'E_UNKNOWN_FIELD' });

      const started = await call(server, 'POST', '/api/account/mfa', cookie, { currentPassword: PASSWORD });
      expect(started.statusCode).toBe(200);
      const enrolment = started.json<MfaEnrolment>();
      expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/); // 160 bits
      const uri = new URL(enrolment.uri);
      expect(uri.protocol).toBe('otpauth:');
      expect(uri.host).toBe('totp');
      expect(decodeURIComponent(uri.pathname)).toBe('/Claims:ann@example.com');
      expect(uri.searchParams.get('issuer')).toBe('Claims');
      expect(uri.searchParams.get('secret')).toBe(enrolment.secret);
      expect(enrolment.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

      // enrolled but not confirmed: not on, and a sign-in still needs no code
      expect(await mfaRequired(server.database, ann.id)).toBe(false);
      expect((await login(server.app, 'ann@example.com')).response.statusCode).toBe(200);

      const wrongConfirm = await call(server, 'POST', '/api/account/mfa/confirm', cookie, {
        code: wrongCode(server, enrolment.secret),
      });
      expect(problem(wrongConfirm)).toMatchObject({ status: 422, code: 'E_MFA_CODE' });
      expect(await mfaRequired(server.database, ann.id)).toBe(false);

      const confirmed = await call(server, 'POST', '/api/account/mfa/confirm', cookie, {
        code: codeAt(server, enrolment.secret),
      });
      expect(confirmed.statusCode).toBe(200);
      const { recoveryCodes } = confirmed.json<RecoveryCodesAnswer>();
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      for (const code of recoveryCodes) expect(code).toMatch(/^([A-Z2-7]{4}-){5}[A-Z2-7]{4}$/); // 120 bits
      expect(await mfaRequired(server.database, ann.id)).toBe(true);
      // the codes are stored as hashes only
      const stored = await server.database.db.selectFrom(TABLES.recoveryCodes).select('code_hash').execute();
      expect(stored).toHaveLength(10);
      const plain = recoveryCodes.map((c) => c.replace(/-/g, ''));
      for (const row of stored) expect(plain).not.toContain(String(row.code_hash).toUpperCase());
      const on = await call(server, 'GET', '/api/account/mfa', cookie);
      expect(on.json()).toEqual({ enabled: true, recoveryCodesLeft: 10, available: true, required: false });

      // the code that confirmed is spent: the next is half a minute on
      server.clock.advance(STEP_MS);
      // the password alone now starts no session
      const { response: passwordOnly } = await login(server.app, 'ann@example.com');
      expect(passwordOnly.statusCode).toBe(202);
      expect(sessionCookie(passwordOnly)).toBeUndefined();
      const challenge = passwordOnly.json<{ mfa: { challenge: string } }>().mfa.challenge;
      expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
      const challenges = await server.database.db
        .selectFrom(TABLES.mfaChallenges)
        .select('id_hash')
        .execute();
      expect(challenges.map((row) => row.id_hash)).not.toContain(challenge);
      const sessionsBefore = await server.database.db.selectFrom(TABLES.sessions).select('id_hash').execute();

      const wrong = await secondStep(server, challenge, wrongCode(server, enrolment.secret));
      expect(problem(wrong)).toMatchObject({ status: 422, code: 'E_MFA_CODE' });
      expect(sessionCookie(wrong)).toBeUndefined();
      const code = codeAt(server, enrolment.secret);
      const signedIn = await secondStep(server, challenge, code);
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json().user).toMatchObject({ id: ann.id, email: 'ann@example.com' });
      const annCookie = sessionCookie(signedIn)!;
      expect((await call(server, 'GET', '/api/session', annCookie)).statusCode).toBe(200);
      const sessionsAfter = await server.database.db
        .selectFrom(TABLES.sessions)
        .select(['id_hash', 'method'])
        .execute();
      expect(sessionsAfter).toHaveLength(sessionsBefore.length + 1);
      expect(sessionsAfter.every((row) => row.method === 'password')).toBe(true);
      // the challenge worked once
      expect(problem(await secondStep(server, challenge, code))).toMatchObject({ code: 'E_MFA_CHALLENGE' });

      // the same code, within its window, in another sign-in: refused (no replay, ASVS 5.0 6.5.1)
      const replay = await secondStep(server, await challengeOf(server, 'ann@example.com'), code);
      expect(problem(replay)).toMatchObject({ status: 422, code: 'E_MFA_CODE' });
      // half a minute on, the old code is still inside the window, and still refused; the new one works
      server.clock.advance(STEP_MS);
      const later = await challengeOf(server, 'ann@example.com');
      expect(problem(await secondStep(server, later, code))).toMatchObject({ code: 'E_MFA_CODE' });
      expect((await secondStep(server, later, codeAt(server, enrolment.secret))).statusCode).toBe(200);

      // a recovery code works once, typed in any case and without its dashes
      const recovery = recoveryCodes[3]!;
      const typed = recovery.replace(/-/g, '').toLowerCase();
      expect((await secondStep(server, await challengeOf(server, 'ann@example.com'), typed)).statusCode).toBe(
        200,
      );
      const again = await secondStep(server, await challengeOf(server, 'ann@example.com'), recovery);
      expect(problem(again)).toMatchObject({ code: 'E_MFA_CODE' });
      expect((await call(server, 'GET', '/api/account/mfa', cookie)).json()).toMatchObject({
        recoveryCodesLeft: 9,
      });

      // new recovery codes need the password; the old ones stop working
      const refused = await call(server, 'POST', '/api/account/mfa/recovery-codes', cookie, {
        currentPassword: 'nope',
      });
      expect(problem(refused)).toMatchObject({ code: 'E_WRONG_PASSWORD' });
      const replaced = await call(server, 'POST', '/api/account/mfa/recovery-codes', cookie, {
        currentPassword: PASSWORD,
      });
      expect(replaced.statusCode).toBe(200);
      const fresh = replaced.json<RecoveryCodesAnswer>().recoveryCodes;
      expect(fresh.filter((c) => recoveryCodes.includes(c))).toEqual([]);
      const old = await secondStep(server, await challengeOf(server, 'ann@example.com'), recoveryCodes[0]!);
      expect(problem(old)).toMatchObject({ code: 'E_MFA_CODE' });
      expect(
        (await secondStep(server, await challengeOf(server, 'ann@example.com'), fresh[0]!)).statusCode,
      ).toBe(200);

      // turning it off needs the password too
      const offWithout = await call(server, 'DELETE', '/api/account/mfa', cookie, {
        currentPassword: 'nope',
      });
      expect(problem(offWithout)).toMatchObject({ code: 'E_WRONG_PASSWORD' });
      expect(await mfaRequired(server.database, ann.id)).toBe(true);
      const turnedOff = await call(server, 'DELETE', '/api/account/mfa', cookie, {
        currentPassword: PASSWORD,
      });
      expect(turnedOff.statusCode).toBe(204);
      expect(await mfaRequired(server.database, ann.id)).toBe(false);
      expect(await server.database.db.selectFrom(TABLES.recoveryCodes).selectAll().execute()).toEqual([]);
      expect((await login(server.app, 'ann@example.com')).response.statusCode).toBe(200);
      const twice = await call(server, 'DELETE', '/api/account/mfa', cookie, { currentPassword: PASSWORD });
      expect(problem(twice)).toMatchObject({ status: 409, code: 'E_MFA_STATE' });

      expect(await eventKinds(server)).toEqual(
        expect.arrayContaining(['mfa-enabled', 'mfa-failed', 'recovery-codes-replaced', 'mfa-disabled']),
      );
      const failed = await server.database.db
        .selectFrom(TABLES.authEvents)
        .selectAll()
        .where('kind', '=', 'mfa-failed')
        .execute();
      expect(failed[0]).toMatchObject({ user_id: ann.id, address: '127.0.0.1' });
    });

    it('lets a challenge live five minutes and five wrong codes', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const { secret } = await enrolled(server, 'ann@example.com');
      server.clock.advance(STEP_MS);

      const old = await challengeOf(server, 'ann@example.com');
      server.clock.advance(5 * 60_000);
      expect(problem(await secondStep(server, old, codeAt(server, secret)))).toMatchObject({
        status: 401,
        code: 'E_MFA_CHALLENGE',
      });

      const challenge = await challengeOf(server, 'ann@example.com');
      server.clock.advance(4 * 60_000 + 59_000); // just inside its five minutes
      // from five addresses, so that the sign-in limiter's delay (per account and address) holds none back
      for (let n = 0; n < 5; n += 1) {
        const wrong = await secondStep(server, challenge, wrongCode(server, secret), `203.0.113.${n + 1}`);
        expect(problem(wrong)).toMatchObject({ code: 'E_MFA_CODE' });
      }
      // spent: even the right code cannot finish it
      const spent = await secondStep(server, challenge, codeAt(server, secret), '203.0.113.9');
      expect(problem(spent)).toMatchObject({ code: 'E_MFA_CHALLENGE' });
      expect(problem(await secondStep(server, 'not-a-challenge', codeAt(server, secret)))).toMatchObject({
        code: 'E_MFA_CHALLENGE',
      });
    });

    it('counts wrong codes in the sign-in limiter, and a right password does not forgive them', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const { secret } = await enrolled(server, 'ann@example.com');
      server.clock.advance(STEP_MS);

      const first = await challengeOf(server, 'ann@example.com');
      for (let n = 0; n < 3; n += 1) await secondStep(server, first, wrongCode(server, secret)); // the free ones
      // a new sign-in with the right password: its wrong code is the fourth failure, which delays
      const second = await challengeOf(server, 'ann@example.com');
      expect((await secondStep(server, second, wrongCode(server, secret))).statusCode).toBe(422);
      const held = await secondStep(server, second, codeAt(server, secret));
      expect(problem(held)).toMatchObject({ status: 429, code: 'E_RATE_LIMITED' });
      expect(held.headers['retry-after']).toBe('1');
      server.clock.advance(1_000);
      expect((await secondStep(server, second, codeAt(server, secret))).statusCode).toBe(200);
    });

    it('gives the reset flow a second step to end in, recorded as a reset’s session', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const ann = await givenUser(server, 'ann@example.com', ['employee']);
      const bob = await givenUser(server, 'bob@example.com', ['employee']);
      const { secret } = await enrolled(server, 'ann@example.com');
      expect(await mfaRequired(server.database, ann.id)).toBe(true);
      expect(await mfaRequired(server.database, bob.id)).toBe(false);
      server.clock.advance(STEP_MS);
      // what the reset flow answers (202) instead of a session when mfaRequired holds
      const context = { database: server.database, now: server.clock.now };
      const answer = await startSecondStep(context, ann.id, 'password-reset');
      const done = await secondStep(server, answer.mfa.challenge, codeAt(server, secret));
      expect(done.statusCode).toBe(200);
      const methods = await server.database.db.selectFrom(TABLES.sessions).select('method').execute();
      expect(methods.map((row) => row.method)).toContain('password-reset');
    });

    it('lets one of two sign-ins with the same code through', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const { secret } = await enrolled(server, 'ann@example.com');
      server.clock.advance(STEP_MS);
      const a = await challengeOf(server, 'ann@example.com');
      const b = await challengeOf(server, 'ann@example.com');
      const code = codeAt(server, secret);
      const answers = await Promise.all([secondStep(server, a, code), secondStep(server, b, code)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    });

    it('offers to end the other sessions when the factor changes', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const elsewhere = (await login(server.app, 'ann@example.com')).cookie!;
      const { cookie } = await login(server.app, 'ann@example.com');
      const started = await call(server, 'POST', '/api/account/mfa', cookie, { currentPassword: PASSWORD });
      const { secret } = started.json<MfaEnrolment>();
      const confirmed = await call(server, 'POST', '/api/account/mfa/confirm', cookie, {
        code: codeAt(server, secret),
        endOtherSessions: true,
      });
      expect(confirmed.statusCode).toBe(200);
      expect(problem(await call(server, 'GET', '/api/session', elsewhere))).toMatchObject({ status: 401 });
      expect((await call(server, 'GET', '/api/session', cookie)).statusCode).toBe(200);

      const notBoolean = await call(server, 'DELETE', '/api/account/mfa', cookie, {
        currentPassword: PASSWORD,
        endOtherSessions: 'yes',
      });
      expect(problem(notBoolean)).toMatchObject({ code: 'E_VALIDATION' });
    });

    it('refuses enrolment to a user without a password (single sign-on only) and to strangers', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const sso = await addUser(server.database, server.model, {
        email: 'sam@example.com',
        name: 'Sam',
        roles: ['employee'],
      });
      const id = await createSession(server.database, sso.id, server.clock.now());
      const cookie = `ninefold_session=${id}`;
      expect((await call(server, 'GET', '/api/account/mfa', cookie)).json()).toEqual({
        enabled: false,
        recoveryCodesLeft: 0,
        available: false,
        required: false,
      });
      const refused = await call(server, 'POST', '/api/account/mfa', cookie, { currentPassword: 'anything' });
      expect(problem(refused)).toMatchObject({ status: 409, code: 'E_MFA_STATE' });
      expect(await server.database.db.selectFrom(TABLES.mfa).selectAll().execute()).toEqual([]);

      const anonymous = await call(server, 'POST', '/api/account/mfa', undefined, {
        currentPassword: PASSWORD,
      });
      expect(problem(anonymous)).toMatchObject({ status: 401, code: 'E_UNAUTHENTICATED' });
      const noCsrf = await server.app.inject({
        method: 'POST',
        url: '/api/account/mfa',
        headers: { cookie },
        payload: { currentPassword: PASSWORD },
      });
      expect(problem(noCsrf)).toMatchObject({ status: 403, code: 'E_CSRF' });
    });
  });

  describe(`${dialect}: admins end sessions`, () => {
    it('ends one user’s sessions, or everyone’s but the admin’s own, and no one else may', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ada@example.com', ['admin']);
      const bob = await givenUser(server, 'bob@example.com', ['employee']);
      await givenUser(server, 'cat@example.com', ['employee']);
      const ada = (await login(server.app, 'ada@example.com')).cookie!;
      const adaElsewhere = (await login(server.app, 'ada@example.com')).cookie!;
      const bob1 = (await login(server.app, 'bob@example.com')).cookie!;
      const bob2 = (await login(server.app, 'bob@example.com')).cookie!;
      const cat = (await login(server.app, 'cat@example.com')).cookie!;
      const signedIn = async (cookie: string) =>
        (await call(server, 'GET', '/api/session', cookie)).statusCode === 200;
      // each is in the session cache now: ending them must reach it
      for (const cookie of [ada, adaElsewhere, bob1, bob2, cat]) expect(await signedIn(cookie)).toBe(true);

      const notAdmin = await call(server, 'DELETE', `/api/admin/sessions?user=${bob.id}`, cat);
      expect(problem(notAdmin)).toMatchObject({ status: 403, code: 'E_FORBIDDEN' });
      expect(await signedIn(bob1)).toBe(true);
      const neither = await call(server, 'DELETE', '/api/admin/sessions', ada);
      expect(problem(neither)).toMatchObject({ status: 400, code: 'E_INVALID_QUERY' });
      const both = await call(server, 'DELETE', `/api/admin/sessions?user=${bob.id}&all=true`, ada);
      expect(problem(both)).toMatchObject({ code: 'E_INVALID_QUERY' });
      const unknown = await call(
        server,
        'DELETE',
        '/api/admin/sessions?user=019ab3c2-7f10-7a3e-9c4d-2b8f0e6a1d55',
        ada,
      );
      expect(problem(unknown)).toMatchObject({ status: 404, code: 'E_NOT_FOUND' });

      const one = await call(server, 'DELETE', `/api/admin/sessions?user=${bob.id}`, ada);
      expect(one.statusCode).toBe(200);
      expect(one.json()).toEqual({ ended: 2 });
      expect(await signedIn(bob1)).toBe(false);
      expect(await signedIn(bob2)).toBe(false);
      expect(await signedIn(cat)).toBe(true);
      expect(await signedIn(ada)).toBe(true);

      const all = await call(server, 'DELETE', '/api/admin/sessions?all=true', ada);
      expect(all.json()).toEqual({ ended: 2 }); // cat's, and ada's other one
      expect(await signedIn(cat)).toBe(false);
      expect(await signedIn(adaElsewhere)).toBe(false);
      expect(await signedIn(ada)).toBe(true);

      const events = await server.database.db
        .selectFrom(TABLES.authEvents)
        .selectAll()
        .where('kind', '=', 'sessions-ended-by-admin')
        .orderBy('at')
        .execute();
      expect(events).toHaveLength(2);
      expect(events[0]).toMatchObject({ user_id: bob.id, actor_id: expect.any(String) });
      expect(events[1]).toMatchObject({ user_id: null });
    });
  });
}
