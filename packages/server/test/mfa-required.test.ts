/**
 * A spec that requires the second factor (`auth.mfa`, decision 0041), through the real server on
 * SQLite and PostgreSQL, with codes computed by `otpauth` at the test's clock: a user of a required
 * role must enrol before their first session, and gets their recovery codes with it; a user of
 * another role signs in directly; an enrolled one gets the usual second step; turning it off is
 * refused; an accepted invitation enrols before its session too; the enrol challenge keeps its life
 * and its wrong-code limit; single sign-on (through a real provider) is not asked for it.
 */
import {
  API_PATHS,
  INVITATION_KEY,
  SESSION_COOKIE,
  MFA_CHALLENGE,
  type EnrolledSessionAnswer,
  type InvitationAnswer,
  type MfaChallengeAnswer,
  type MfaEnrolment,
} from '@ninefold/model';
import {
  DIALECTS,
  PASSWORD,
  type TestOidcProvider,
  givenUser,
  login,
  problem,
  sessionCookie,
  startOidcProvider,
  testServer,
} from '@ninefold/testkit';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLES } from '../src/index.js';
import { type IdentityWorld, identityWorld, peopleModel } from './identity-world.js';

/** The code an authenticator app shows for a secret at the server's clock. */
function codeAt(w: IdentityWorld, secret: string): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({
    timestamp: w.server.clock.now().getTime(),
  });
}

/** A six-digit code that is not the secret's now nor either side of it. */
function wrongCode(w: IdentityWorld, secret: string): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  const at = w.server.clock.now().getTime();
  const near = new Set([-1, 0, 1].map((d) => totp.generate({ timestamp: at + d * 30_000 })));
  for (let n = 0; ; n += 1) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

async function sessionCount(w: IdentityWorld): Promise<number> {
  return (await w.server.database.db.selectFrom(TABLES.sessions).select('user_id').execute()).length;
}

async function eventKinds(w: IdentityWorld): Promise<string[]> {
  const rows = await w.server.database.db
    .selectFrom(TABLES.authEvents)
    .select('kind')
    .orderBy('at')
    .execute();
  return rows.map((row) => String(row.kind));
}

/** Enrols at a challenge and confirms with the app's first code: the answer and the secret. */
async function enrolAt(w: IdentityWorld, challenge: string) {
  const enrolled = await w.call('POST', '/api/session/mfa/enrol', { payload: { challenge } });
  expect(enrolled.statusCode).toBe(200);
  const enrolment = enrolled.json<MfaEnrolment>();
  expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\//);
  expect(enrolment.qrSvg).toContain('<svg');
  const finished = await w.call('POST', '/api/session/mfa', {
    payload: { challenge, code: codeAt(w, enrolment.secret) },
  });
  return { finished, secret: enrolment.secret };
}

const CALLBACK = `/api/${API_PATHS.oidcCallback}`;

let provider: TestOidcProvider;
beforeAll(async () => {
  provider = await startOidcProvider({
    accounts: [{ sub: 'ada-1', email: 'ada@example.com', name: 'Ada', groups: [] }],
    redirectUris: [`http://127.0.0.1${CALLBACK}`],
  });
});
afterAll(async () => {
  await provider?.close();
});

/** A browser's GET, its cookies kept in a jar, redirects not followed. */
async function get(url: string, jar: Map<string, string>): Promise<Response> {
  const response = await fetch(url, {
    redirect: 'manual',
    headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
  });
  for (const header of response.headers.getSetCookie()) {
    const [pair = ''] = header.split(';');
    const at = pair.indexOf('=');
    if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(header)) jar.delete(pair.slice(0, at));
    else jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return response;
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: a required second factor`, () => {
    it('makes a user of a required role enrol before their first session, and not another role', async () => {
      const w = await identityWorld(dialect, peopleModel({ mfa: { required: ['admin'] } }), { smtp: false });
      await w.signedIn('sam@example.com', ['staff']); // a staff member signs in as before
      expect(await sessionCount(w)).toBe(1);
      await givenUser(w.server, 'ada@example.com', ['admin', 'staff']);

      const { response } = await login(w.server.app, 'ada@example.com');
      expect(response.statusCode).toBe(202);
      expect(response.headers['set-cookie']).toBeUndefined();
      const { mfa } = response.json<MfaChallengeAnswer>();
      expect(mfa.enrol).toBe(true);
      expect(await sessionCount(w)).toBe(1);

      // a code before any secret is wrong, and counts
      const early = await w.call('POST', '/api/session/mfa', {
        payload: { challenge: mfa.challenge, code: '123456' },
      });
      expect(problem(early)).toMatchObject({ status: 422, code: 'E_MFA_CODE' });
      // the enrolment needs a live challenge, and nothing else
      const forged = await w.call('POST', '/api/session/mfa/enrol', {
        payload: { challenge: 'x'.repeat(43) },
      });
      expect(problem(forged)).toMatchObject({ status: 401, code: 'E_MFA_CHALLENGE' });
      const extra = await w.call('POST', '/api/session/mfa/enrol', {
        payload: { challenge: mfa.challenge, secret: 'AAAA' },
      });
      expect(problem(extra).errors?.[0]).toMatchObject({ field: 'secret', code: 'E_UNKNOWN_FIELD' });

      const enrolled = await w.call('POST', '/api/session/mfa/enrol', {
        payload: { challenge: mfa.challenge },
      });
      const { secret } = enrolled.json<MfaEnrolment>();
      const wrong = await w.call('POST', '/api/session/mfa', {
        payload: { challenge: mfa.challenge, code: wrongCode(w, secret) },
      });
      expect(problem(wrong)).toMatchObject({ status: 422, code: 'E_MFA_CODE' });
      expect(await sessionCount(w)).toBe(1);

      const finished = await w.call('POST', '/api/session/mfa', {
        payload: { challenge: mfa.challenge, code: codeAt(w, secret) },
      });
      expect(finished.statusCode).toBe(200);
      const answer = finished.json<EnrolledSessionAnswer>();
      expect(answer.user.email).toBe('ada@example.com');
      expect(answer.recoveryCodes).toHaveLength(10);
      const cookie = sessionCookie(finished);
      expect((await w.call('GET', '/api/session', { cookie })).json().user.email).toBe('ada@example.com');
      expect((await w.call('GET', '/api/account/mfa', { cookie })).json()).toEqual({
        enabled: true,
        recoveryCodesLeft: 10,
        available: true,
        required: true,
      });
      // the challenge is used up
      const replay = await w.call('POST', '/api/session/mfa', {
        payload: { challenge: mfa.challenge, code: codeAt(w, secret) },
      });
      expect(problem(replay)).toMatchObject({ status: 401, code: 'E_MFA_CHALLENGE' });
      expect(await eventKinds(w)).toEqual(['sign-in', 'mfa-failed', 'mfa-failed', 'mfa-enabled', 'sign-in']);

      // from now on, the usual second step: a code, no new secret, no recovery codes
      w.server.clock.advance(60_000);
      const again = await login(w.server.app, 'ada@example.com');
      expect(again.response.statusCode).toBe(202);
      const second = again.response.json<MfaChallengeAnswer>().mfa;
      expect(second.enrol).toBeUndefined();
      const noNewSecret = await w.call('POST', '/api/session/mfa/enrol', {
        payload: { challenge: second.challenge },
      });
      expect(problem(noNewSecret)).toMatchObject({ status: 409, code: 'E_MFA_STATE' });
      const signedIn = await w.call('POST', '/api/session/mfa', {
        payload: { challenge: second.challenge, code: codeAt(w, secret) },
      });
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json<EnrolledSessionAnswer>().recoveryCodes).toBeUndefined();

      // required: it cannot be turned off, and stays on
      const off = await w.call('DELETE', '/api/account/mfa', {
        cookie,
        payload: { currentPassword: PASSWORD },
      });
      expect(problem(off)).toMatchObject({ status: 409, code: 'E_MFA_REQUIRED' });
      expect((await w.call('GET', '/api/account/mfa', { cookie })).json().enabled).toBe(true);

      // a staff member is not asked
      const sam = await login(w.server.app, 'sam@example.com');
      expect(sam.response.statusCode).toBe(200);
      const samStatus = await w.call('GET', '/api/account/mfa', { cookie: sam.cookie });
      expect(samStatus.json()).toMatchObject({ enabled: false, required: false });
    });

    it('`required` asks everyone who signs in with a password; the challenge keeps its life and limit', async () => {
      const w = await identityWorld(dialect, peopleModel({ mfa: 'required' }), { smtp: false });
      await givenUser(w.server, 'sam@example.com', ['staff']);

      const first = (await login(w.server.app, 'sam@example.com')).response.json<MfaChallengeAnswer>().mfa;
      expect(first.enrol).toBe(true);
      w.server.clock.advance(MFA_CHALLENGE.minutes * 60_000);
      const late = await w.call('POST', '/api/session/mfa/enrol', {
        payload: { challenge: first.challenge },
      });
      expect(problem(late)).toMatchObject({ status: 401, code: 'E_MFA_CHALLENGE' });

      const second = (await login(w.server.app, 'sam@example.com')).response.json<MfaChallengeAnswer>().mfa;
      const { secret } = (
        await w.call('POST', '/api/session/mfa/enrol', { payload: { challenge: second.challenge } })
      ).json<MfaEnrolment>();
      // from five addresses, so that the sign-in limiter's delay (per account and address) holds none back
      for (let n = 0; n < MFA_CHALLENGE.attempts; n += 1) {
        const wrong = await w.call('POST', '/api/session/mfa', {
          payload: { challenge: second.challenge, code: wrongCode(w, secret) },
          address: `203.0.113.${n + 1}`,
        });
        expect(problem(wrong).code).toBe('E_MFA_CODE');
      }
      const spent = await w.call('POST', '/api/session/mfa', {
        payload: { challenge: second.challenge, code: codeAt(w, secret) },
      });
      expect(problem(spent)).toMatchObject({ status: 401, code: 'E_MFA_CHALLENGE' });
      expect(await sessionCount(w)).toBe(0);
      expect((await w.call('GET', '/api/session', {})).statusCode).toBe(401);

      const third = (await login(w.server.app, 'sam@example.com')).response.json<MfaChallengeAnswer>().mfa;
      const { finished } = await enrolAt(w, third.challenge);
      expect(finished.statusCode).toBe(200);
      expect(finished.json<EnrolledSessionAnswer>().recoveryCodes).toHaveLength(10);
      expect(await sessionCount(w)).toBe(1);
    });

    it('an invitation accepted by a user of a required role enrols before it has a session', async () => {
      const w = await identityWorld(dialect, peopleModel({ mfa: { required: ['lead'] } }), { smtp: false });
      const ada = await w.signedIn('ada@example.com', ['admin']);
      const created = await w.call('POST', '/api/users', {
        cookie: ada,
        payload: { email: 'lea@example.com', name: 'Lea', roles: ['lead'] },
      });
      const { link } = created.json()[INVITATION_KEY] as InvitationAnswer;
      const token = /#token=(.+)$/.exec(link ?? '')?.[1] ?? '';

      const accepted = await w.call('POST', '/api/invitations/accept', {
        payload: { token, password: 'a long new passphrase 42' },
      });
      expect(accepted.statusCode).toBe(202);
      expect(accepted.headers['set-cookie']).toBeUndefined();
      const { mfa } = accepted.json<MfaChallengeAnswer>();
      expect(mfa.enrol).toBe(true);
      expect(await sessionCount(w)).toBe(1); // Ada's

      const { finished } = await enrolAt(w, mfa.challenge);
      expect(finished.statusCode).toBe(200);
      expect(finished.json<EnrolledSessionAnswer>().user.email).toBe('lea@example.com');
      expect(finished.json<EnrolledSessionAnswer>().recoveryCodes).toHaveLength(10);
      const method = await w.server.database.db
        .selectFrom(TABLES.sessions)
        .select('method')
        .where('method', '=', 'invitation')
        .execute();
      expect(method).toHaveLength(1);
    });

    it('does not ask single sign-on for it: the provider owns its factors', async () => {
      const model = peopleModel({
        mfa: 'required',
        oidc: {
          issuer: '${OIDC_ISSUER}',
          clientId: 'ninefold',
          clientSecret: '${OIDC_CLIENT_SECRET}',
          label: 'Acme',
          roles: null,
        },
      });
      const server = await testServer(dialect, model, {
        env: { OIDC_ISSUER: provider.issuer, OIDC_CLIENT_SECRET: provider.clientSecret },
      });
      const ada = await givenUser(server, 'ada@example.com', ['admin']);
      const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
      try {
        // the password asks for the enrolment…
        const { response } = await login(server.app, 'ada@example.com');
        expect(response.json<MfaChallengeAnswer>().mfa.enrol).toBe(true);
        // …single sign-on, by the same person, signs in at once
        const jar = new Map<string, string>();
        const started = await get(`${base}/api/${API_PATHS.oidcStart}`, jar);
        expect(started.status).toBe(302);
        const callback = await provider.signIn(started.headers.get('location')!, 'ada-1');
        const finished = await get(callback, jar);
        expect(finished.status).toBe(302);
        expect(finished.headers.get('location')).toBe('/');
        expect(jar.has(SESSION_COOKIE)).toBe(true);
        const session = await get(`${base}/api/${API_PATHS.session}`, jar);
        expect(((await session.json()) as { user: { id: string } }).user.id).toBe(ada.id);
      } finally {
        await server.app.close();
      }
    });
  });
}
