/**
 * A user deleted by a cascade is signed out at once (decision 0043): their sessions, cached or not,
 * answer 401 at the next request, as after deleting the user directly.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CSRF, DIALECTS, checkedInject, givenUser, login, specModel, testServer } from '@ninefold/testkit';

const SPEC = `
product: { name: Crews }
entities:
  Team:
    fields:
      name: { type: string, required: true }
  User:
    fields:
      team: { type: ref, to: Team, onDelete: cascade }
roles:
  admin:
    Team: true
    User: true
  member:
    Team: { read: all }
`;

for (const dialect of DIALECTS) {
  describe(`${dialect}: a user deleted by a cascade`, () => {
    it('is signed out at the next request', async () => {
      const model = specModel(SPEC);
      const server = await testServer(dialect, model);
      await givenUser(server, 'boss@example.com', ['admin']);
      const member = await givenUser(server, 'crew@example.com', ['member']);
      const as = async (email: string) => {
        const cookie = (await login(server.app, email)).cookie ?? '';
        return (method: string, url: string, payload?: object) =>
          checkedInject(server.app, model, {
            method,
            url,
            headers: { ...CSRF, cookie },
            ...(payload === undefined ? {} : { payload }),
          });
      };
      const boss = await as('boss@example.com');
      const crew = await as('crew@example.com');
      const created = await boss('POST', '/api/teams', { name: 'Night shift' });
      expect(created.statusCode, created.body).toBe(201);
      const team = String(created.json<{ id: string }>().id);
      await sql`update ${sql.table('users')} set ${sql.ref('team')} = ${team} where ${sql.ref('id')} = ${member.id}`.execute(
        server.database.db,
      );
      // read twice: the second answer comes from the session cache where there is one
      expect((await crew('GET', '/api/teams')).statusCode).toBe(200);
      expect((await crew('GET', '/api/teams')).statusCode).toBe(200);

      const references = await boss('GET', `/api/teams/${team}/references`);
      expect(references.json()).toEqual({
        data: [{ entity: 'User', field: 'team', count: 1, onDelete: 'cascade' }],
        deletable: true,
      });
      expect((await boss('DELETE', `/api/teams/${team}`)).statusCode).toBe(204);
      expect((await boss('GET', `/api/users/${member.id}`)).statusCode).toBe(404);
      expect((await crew('GET', '/api/teams')).statusCode).toBe(401);
    });
  });
}
