/**
 * The language a user picks in the app, saved on their account (decision 0067): one of the spec's
 * locales, said by every session of theirs (the cached one too) from then on, forgotten with null.
 */
import { describe, expect, it } from 'vitest';
import { type Model } from '@ninefold/model';
import {
  checkedInject,
  CSRF,
  DIALECTS,
  givenUser,
  PASSWORD,
  problem,
  sessionCookie,
  specModel,
  testServer,
  type TestServer,
} from '@ninefold/testkit';

const SPEC = `
product: { name: Claims, locale: en-GB }
entities:
  Claim:
    fields:
      title: { type: string, required: true }
roles:
  employee: { Claim: { read: true, create: true } }
`;

function offered(model: Model): Model {
  return { ...model, product: { ...model.product, locales: ['en-GB', 'fr-FR', 'ar'] } };
}

async function signIn(server: TestServer): Promise<string> {
  const response = await checkedInject(server.app, server.model, {
    method: 'POST',
    url: '/api/session',
    headers: CSRF,
    payload: { email: 'ann@example.com', password: PASSWORD },
  });
  expect(response.statusCode, response.body).toBe(200);
  return sessionCookie(response) ?? '';
}

const call = (server: TestServer, cookie: string, method: string, url: string, payload?: object) =>
  checkedInject(server.app, server.model, {
    method,
    url,
    headers: { ...CSRF, cookie },
    ...(payload === undefined ? {} : { payload }),
  });

const localeOf = async (server: TestServer, cookie: string) =>
  (await call(server, cookie, 'GET', '/api/session')).json<{ user: { locale: string | null } }>().user.locale;

for (const dialect of DIALECTS) {
  describe(`${dialect}: the language a user picks`, () => {
    it('is saved as the spec spells it, said by every session of theirs, and forgotten with null', async () => {
      const server = await testServer(dialect, offered(specModel(SPEC)));
      await givenUser(server, 'ann@example.com', ['employee']);
      const laptop = await signIn(server);
      // read once, so that the laptop's session is in the session cache when the choice changes
      expect(await localeOf(server, laptop)).toBeNull();

      const chosen = await call(server, laptop, 'PUT', '/api/account/locale', { locale: 'fr-fr' });
      expect(chosen.statusCode, chosen.body).toBe(200);
      expect(chosen.json<{ user: { locale: string } }>().user.locale).toBe('fr-FR');
      expect(await localeOf(server, laptop)).toBe('fr-FR');
      // another device signs in with it
      const phone = await signIn(server);
      const signedIn = await checkedInject(server.app, server.model, {
        method: 'GET',
        url: '/api/session',
        headers: { cookie: phone },
      });
      expect(signedIn.json<{ user: { locale: string } }>().user.locale).toBe('fr-FR');

      const forgotten = await call(server, phone, 'PUT', '/api/account/locale', { locale: null });
      expect(forgotten.statusCode, forgotten.body).toBe(200);
      expect(await localeOf(server, laptop)).toBeNull();
    });

    it('refuses a locale the spec does not offer, and anyone not signed in', async () => {
      const server = await testServer(dialect, offered(specModel(SPEC)));
      await givenUser(server, 'ann@example.com', ['employee']);
      const cookie = await signIn(server);
      const refused = await call(server, cookie, 'PUT', '/api/account/locale', { locale: 'de-DE' });
      expect(refused.statusCode).toBe(422);
      expect(problem(refused).code).toBe('E_VALIDATION');
      expect(refused.json<{ errors: { field: string; code: string }[] }>().errors).toEqual([
        expect.objectContaining({ field: 'locale', code: 'E_NOT_ONE_OF' }),
      ]);
      expect(await localeOf(server, cookie)).toBeNull();
      const anonymous = await checkedInject(server.app, server.model, {
        method: 'PUT',
        url: '/api/account/locale',
        headers: CSRF,
        payload: { locale: 'fr-FR' },
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });
}
