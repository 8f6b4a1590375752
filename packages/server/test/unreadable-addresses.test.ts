/**
 * An address the router cannot read — a record id longer than any id, or percent-encoding that is
 * not UTF-8 — is answered like every other bad request: a problem with a catalogue code, not the
 * web framework's own JSON (the fault suite's fuzz found the first: a 300-character id was a 414
 * with Fastify's FST_ERR_MAX_PARAM_LENGTH body).
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
  ['GET', `/api/notes/${LONG_ID}`],
  ['PATCH', `/api/notes/${LONG_ID}`],
  ['DELETE', `/api/notes/${LONG_ID}`],
  ['GET', `/api/notes/${LONG_ID}/history`],
  ['POST', `/api/notes/${LONG_ID}/transitions/finish`],
  ['GET', '/api/notes/%E0%A4%A'],
  ['PATCH', '/api/notes/%FF'],
] as const;

for (const dialect of DIALECTS) {
  describe(`${dialect}: unreadable addresses`, () => {
    it('answers a too-long id or a malformed percent-encoding with E_BAD_REQUEST', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['user']);
      const { cookie } = await login(server.app, 'ann@example.com');
      for (const [method, url] of ADDRESSES) {
        const response = await server.app.inject({
          method,
          url,
          headers: { ...CSRF, cookie: cookie ?? '', 'if-match': '"1"', 'content-type': 'application/json' },
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: '{}' }),
        });
        expect(response.statusCode, `${method} ${url}`).toBe(400);
        expect(String(response.headers['content-type'])).toContain(PROBLEM_MEDIA_TYPE);
        const body = problem(response);
        expect(body.code).toBe('E_BAD_REQUEST');
        expect(body.message).not.toMatch(/FST_|xxxxxxxxxx/);
        expect(body.correlationId).toEqual(expect.any(String));
      }
    });
  });
}
