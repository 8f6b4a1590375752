/**
 * An address the router cannot read — a record id longer than any id, or percent-encoding that is
 * not UTF-8 — is answered with a problem and a catalogue code on every record route, not the web
 * framework's own JSON (the fault suite's fuzz found the first: a 300-character id was a 414 with
 * Fastify's FST_ERR_MAX_PARAM_LENGTH body).
 */
import { PROBLEM_MEDIA_TYPE } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { CSRF, DIALECTS, givenUser, login, problem, specModel, testServer } from '@ninefold/testkit';

const SPEC = `
product: { name: Notes }
entities:
  Note:
    fields:
      title: { type: string }
states:
  Note:
    initial: open
    states: [open, done]
    transitions:
      finish: { from: open, to: done }
`;

const LONG_ID = 'x'.repeat(300);
const ADDRESSES = [
  ['GET', `/api/notes/${LONG_ID}`, 414, 'E_URI_TOO_LONG'],
  ['PATCH', `/api/notes/${LONG_ID}`, 414, 'E_URI_TOO_LONG'],
  ['DELETE', `/api/notes/${LONG_ID}`, 414, 'E_URI_TOO_LONG'],
  ['GET', `/api/notes/${LONG_ID}/history`, 414, 'E_URI_TOO_LONG'],
  ['POST', `/api/notes/${LONG_ID}/transitions/finish`, 414, 'E_URI_TOO_LONG'],
  ['GET', '/api/notes/%E0%A4%A', 400, 'E_BAD_REQUEST'],
  ['PATCH', '/api/notes/%FF', 400, 'E_BAD_REQUEST'],
] as const;

for (const dialect of DIALECTS) {
  describe(`${dialect}: unreadable addresses`, () => {
    it('answers a too-long id with E_URI_TOO_LONG and a malformed percent-encoding with E_BAD_REQUEST', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['user']);
      const { cookie } = await login(server.app, 'ann@example.com');
      for (const [method, url, status, code] of ADDRESSES) {
        const response = await server.app.inject({
          method,
          url,
          headers: { ...CSRF, cookie: cookie ?? '', 'if-match': '"1"', 'content-type': 'application/json' },
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: '{}' }),
        });
        expect(response.statusCode, `${method} ${url}`).toBe(status);
        expect(String(response.headers['content-type'])).toContain(PROBLEM_MEDIA_TYPE);
        const body = problem(response);
        expect(body.code).toBe(code);
        expect(body.message).not.toMatch(/FST_|xxxxxxxxxx/);
        expect(body.correlationId).toEqual(expect.any(String));
      }
    });
  });
}
