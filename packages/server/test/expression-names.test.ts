/**
 * Fields named like expression names, and durations, over HTTP on every database (decision 0064):
 * a loan's field `user` is `self.user` in the spec's rules and permissions while `user` stays the
 * signed-in user — in the engine's checks and in the read permission's SQL — a field `status` is
 * its bare name, and a default `now + duration('14d')` is fourteen days of the test's clock.
 */
import { describe, expect, it } from 'vitest';
import {
  CSRF,
  DIALECTS,
  checkedInject,
  givenUser,
  login,
  problem,
  specModel,
  testServer,
} from '@ninefold/testkit';

const SPEC = `
product: { name: Lending, audience: [Members, Librarians] }
entities:
  Loan:
    fields:
      title: { type: string, required: true }
      user: { type: ref, to: User, required: true, default: user.id }
      status: { type: enum, values: [out, back], default: out }
      dueAt: { type: datetime, default: "now + duration('14d')" }
rules:
  - id: for-yourself
    entity: Loan
    assert: "self.user == user.id"
    error: E_NOT_YOURS
errors:
  E_NOT_YOURS: "A loan is for the member who borrows."
roles:
  member:
    Loan: { read: "self.user == user.id", create: true, update: "self.user == user.id && status == 'out'" }
`;

for (const dialect of DIALECTS) {
  describe(`${dialect}: fields named like expression names`, () => {
    async function lending() {
      const model = specModel(SPEC);
      const server = await testServer(dialect, model);
      const ada = await givenUser(server, 'ada@example.com', ['member']);
      const bob = await givenUser(server, 'bob@example.com', ['member']);
      const cookies = {
        ada: (await login(server.app, 'ada@example.com')).cookie ?? '',
        bob: (await login(server.app, 'bob@example.com')).cookie ?? '',
      };
      const call = (who: 'ada' | 'bob', method: string, url: string, payload?: object, version?: number) =>
        checkedInject(server.app, model, {
          method,
          url,
          headers: {
            ...CSRF,
            cookie: cookies[who],
            ...(version === undefined ? {} : { 'if-match': `"${version}"` }),
          },
          ...(payload === undefined ? {} : { payload }),
        });
      return { server, model, ada, bob, call };
    }

    it('a loan is the signed-in member’s: `self.user == user.id` holds on create and refuses another’s', async () => {
      const { server, ada, bob, call } = await lending();
      const created = await call('ada', 'POST', '/api/loans', { title: 'Dune' });
      expect(created.statusCode, created.body).toBe(201);
      const loan = created.json<Record<string, unknown>>();
      expect(loan).toMatchObject({ user: ada.id, status: 'out' });
      expect(Date.parse(String(loan['dueAt'])) - server.clock.now().getTime()).toBe(14 * 86_400_000);

      const forBob = problem(await call('ada', 'POST', '/api/loans', { title: 'Emma', user: bob.id }));
      expect(forBob).toMatchObject({ status: 422, code: 'E_NOT_YOURS' });
    });

    it('the read permission selects by `self.user` in SQL, and updates need `self.user` and `status`', async () => {
      const { call } = await lending();
      const dune = (await call('ada', 'POST', '/api/loans', { title: 'Dune' })).json<{ id: string }>();
      const emma = (await call('bob', 'POST', '/api/loans', { title: 'Emma' })).json<{ id: string }>();
      const titles = async (who: 'ada' | 'bob') =>
        (await call(who, 'GET', '/api/loans')).json<{ data: { title: string }[] }>().data.map((l) => l.title);
      expect(await titles('ada')).toEqual(['Dune']);
      expect(await titles('bob')).toEqual(['Emma']);

      expect((await call('bob', 'GET', `/api/loans/${dune.id}`)).statusCode).toBe(404);
      expect((await call('bob', 'PATCH', `/api/loans/${dune.id}`, { title: 'Mine' }, 1)).statusCode).toBe(
        404,
      );
      const renamed = await call('bob', 'PATCH', `/api/loans/${emma.id}`, { title: 'Emma, vol. 2' }, 1);
      expect(renamed.statusCode, renamed.body).toBe(200);
      // the bare `status` is the field: a loan already back may not be changed
      const back = (await call('bob', 'POST', '/api/loans', { title: 'Persuasion', status: 'back' })).json<{
        id: string;
      }>();
      expect(problem(await call('bob', 'PATCH', `/api/loans/${back.id}`, { title: 'Again' }, 1)).status).toBe(
        403,
      );
    });

    it('serves the audience written as a list as the model’s list', async () => {
      const { model, call } = await lending();
      expect(model.product.audience).toEqual(['Members', 'Librarians']);
      const served = await call('ada', 'GET', '/api/model');
      expect(served.json<{ product: { audience: string[] } }>().product.audience).toEqual([
        'Members',
        'Librarians',
      ]);
    });
  });
}
