/**
 * Resource behaviour that the examples do not reach: an entity a role may not read at all, an
 * entity without a state machine, and an API mounted at another base path.
 */
import { describe, expect, it } from 'vitest';
import {
  checkedInject,
  CSRF,
  DIALECTS,
  givenUser,
  login,
  problem,
  specModel,
  testServer,
} from '@ninefold/testkit';

const SPEC = `
product: { name: Vault }
entities:
  Note:
    search: [title]
    fields:
      title: { type: string, required: true }
      pinned: { type: boolean, default: false }
  Secret:
    fields:
      value: { type: string, required: true }
roles:
  writer: { Note: true }
  keeper: { Note: { read: true }, Secret: true }
calls: { basePath: /v1 }
`;

for (const dialect of DIALECTS) {
  describe(`${dialect}: resources`, () => {
    it('mounts at calls.basePath, refuses a list of an entity the role cannot read, and has no state without a machine', async () => {
      const model = specModel(SPEC);
      const server = await testServer(dialect, model);
      await givenUser(server, 'wes@example.com', ['writer']);
      await givenUser(server, 'kim@example.com', ['keeper']);
      const wes = (await login(server.app, 'wes@example.com')).cookie ?? '';
      const kim = (await login(server.app, 'kim@example.com')).cookie ?? '';
      const call = (cookie: string, method: string, url: string, payload?: object) =>
        checkedInject(server.app, model, {
          method,
          url,
          headers: { ...CSRF, cookie },
          ...(payload === undefined ? {} : { payload }),
        });

      const created = await call(wes, 'POST', '/v1/notes', { title: 'Groceries' });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.headers.location).toBe(`/v1/notes/${String(created.json<{ id: string }>().id)}`);
      const note = created.json<Record<string, unknown>>();
      expect(note).not.toHaveProperty('state');
      expect(note['_actions']).toEqual([]);
      expect(problem(await call(wes, 'GET', '/v1/secrets'))).toMatchObject({
        status: 403,
        code: 'E_FORBIDDEN',
      });
      expect(problem(await call(wes, 'POST', '/v1/secrets', { value: 'x' })).code).toBe('E_FORBIDDEN');
      const secret = await call(kim, 'POST', '/v1/secrets', { value: 'hunter2' });
      expect(secret.statusCode).toBe(201);
      expect(
        problem(await call(wes, 'GET', `/v1/secrets/${String(secret.json<{ id: string }>().id)}`)).status,
      ).toBe(404);
      expect((await call(kim, 'GET', '/v1/notes?q=grocer&pinned=false&total=true')).json()).toMatchObject({
        total: 1,
      });
      expect(problem(await call(kim, 'GET', '/v1/notes?state=draft')).code).toBe('E_INVALID_QUERY');
      expect(
        (await checkedInject(server.app, server.model, { method: 'GET', url: '/api/notes' })).statusCode,
      ).toBe(404);
    });
  });
}
