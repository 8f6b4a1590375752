/**
 * The jobs for admins over HTTP: the list, newest first and by state; a dead job retried back to
 * pending and then run; everyone else refused. An admin is a role that may change users' roles.
 */
import { describe, expect, it } from 'vitest';
import { JobRunner, enqueueJob } from '../src/index.js';
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
product: { name: Outbox }
entities:
  Note:
    fields:
      title: { type: string, required: true }
roles:
  admin:
    Note: true
    User:
      read: true
      create: true
      update: true
      delete: false
      fields: { write: [name, email, roles, disabled] }
  clerk:
    Note: true
    User:
      read: true
      update: true
      fields: { write: [name] }
`;

for (const dialect of DIALECTS) {
  describe(`${dialect}: jobs for admins`, () => {
    it('lists the jobs newest first, by state, retries a dead one, and refuses everyone else', async () => {
      const model = specModel(SPEC);
      const server = await testServer(dialect, model);
      await givenUser(server, 'ada@example.com', ['admin']);
      await givenUser(server, 'cal@example.com', ['clerk']);
      const ada = (await login(server.app, 'ada@example.com')).cookie ?? '';
      const cal = (await login(server.app, 'cal@example.com')).cookie ?? '';
      const call = (cookie: string, method: string, url: string) =>
        checkedInject(server.app, model, { method, url, headers: { ...CSRF, cookie } });

      let failing = true;
      const ran: string[] = [];
      const runner = new JobRunner({
        database: server.database,
        now: server.clock.now,
        handlers: {
          deliver: async (job) => {
            if (failing) throw new Error('receiver down');
            ran.push(job.id);
          },
        },
      });
      const first = await enqueueJob(
        server.database.db,
        { kind: 'deliver', payload: { to: 'a' }, maxAttempts: 1 },
        server.clock.now(),
      );
      server.clock.advance(1000);
      const second = await enqueueJob(
        server.database.db,
        { kind: 'deliver', payload: { to: 'b' }, runAt: new Date(server.clock.now().getTime() + 60_000) },
        server.clock.now(),
      );
      expect(await runner.runDue()).toBe(1);

      const all = await call(ada, 'GET', '/api/admin/jobs');
      expect(all.statusCode).toBe(200);
      expect(all.json().data.map((job: { id: string; state: string }) => [job.id, job.state])).toEqual([
        [second.id, 'pending'],
        [first.id, 'dead'],
      ]);
      const dead = await call(ada, 'GET', '/api/admin/jobs?state=dead');
      expect(dead.json().data).toEqual([
        expect.objectContaining({
          id: first.id,
          kind: 'deliver',
          payload: { to: 'a' },
          state: 'dead',
          attempts: 1,
          maxAttempts: 1,
          lastError: 'receiver down',
        }),
      ]);
      expect((await call(ada, 'GET', '/api/admin/jobs?limit=1')).json().data).toHaveLength(1);

      // a job that is not dead cannot be retried; nor one that does not exist
      expect(problem(await call(ada, 'POST', `/api/admin/jobs/${second.id}/retry`))).toMatchObject({
        status: 409,
        code: 'E_CONFLICT',
      });
      expect(problem(await call(ada, 'POST', '/api/admin/jobs/no-such-job/retry'))).toMatchObject({
        status: 404,
        code: 'E_NOT_FOUND',
      });

      const retried = await call(ada, 'POST', `/api/admin/jobs/${first.id}/retry`);
      expect(retried.statusCode).toBe(200);
      expect(retried.json()).toMatchObject({ id: first.id, state: 'pending', attempts: 0 });
      // a second retry finds it no longer dead
      expect(problem(await call(ada, 'POST', `/api/admin/jobs/${first.id}/retry`))).toMatchObject({
        status: 409,
        code: 'E_CONFLICT',
      });
      failing = false;
      expect(await runner.runDue()).toBe(1);
      expect(ran).toEqual([first.id]);
      expect(
        (await call(ada, 'GET', '/api/admin/jobs?state=done'))
          .json()
          .data.map((job: { id: string }) => job.id),
      ).toEqual([first.id]);

      // a clerk may change users, but not their roles: not an admin
      expect(problem(await call(cal, 'GET', '/api/admin/jobs'))).toMatchObject({
        status: 403,
        code: 'E_FORBIDDEN',
      });
      expect(problem(await call(cal, 'POST', `/api/admin/jobs/${first.id}/retry`))).toMatchObject({
        status: 403,
        code: 'E_FORBIDDEN',
      });
      expect(problem(await call('', 'GET', '/api/admin/jobs'))).toMatchObject({
        status: 401,
        code: 'E_UNAUTHENTICATED',
      });
      // a retry without the CSRF header is refused before anything
      const noCsrf = await checkedInject(server.app, model, {
        method: 'POST',
        url: `/api/admin/jobs/${first.id}/retry`,
        headers: { cookie: ada },
      });
      expect(problem(noCsrf)).toMatchObject({ code: 'E_CSRF' });
    });

    it('refuses a state or limit it does not know with E_INVALID_QUERY', async () => {
      const model = specModel(SPEC);
      const server = await testServer(dialect, model);
      await givenUser(server, 'ada@example.com', ['admin']);
      const ada = (await login(server.app, 'ada@example.com')).cookie ?? '';
      for (const query of [
        'state=lost',
        'limit=0',
        'limit=501',
        'limit=ten',
        'limit=1&limit=2',
        'state=dead&state=done',
      ]) {
        const response = await checkedInject(server.app, model, {
          method: 'GET',
          url: `/api/admin/jobs?${query}`,
          headers: { cookie: ada },
        });
        expect(problem(response), query).toMatchObject({ status: 400, code: 'E_INVALID_QUERY' });
      }
    });

    it('in a spec without roles no one is an admin: there, users are kept by `ninefold users`', async () => {
      const model = specModel(`entities: { Note: { fields: { title: { type: string } } } }`);
      const server = await testServer(dialect, model);
      await givenUser(server, 'ada@example.com', ['user']);
      const ada = (await login(server.app, 'ada@example.com')).cookie ?? '';
      const response = await checkedInject(server.app, model, {
        method: 'GET',
        url: '/api/admin/jobs',
        headers: { cookie: ada },
      });
      expect(problem(response)).toMatchObject({ status: 403, code: 'E_FORBIDDEN' });
    });
  });
}
