/**
 * One-time links themselves (decision 0037), on every database: what inspecting one answers, that
 * a link works once even when two requests race with it, that a mail job run again mails a new
 * secret and the earlier one stops working, and that a mailed link is never built from the Host
 * header a client sends.
 */
import { INVITATION_KEY, type InvitationAnswer } from '@ninefold/model';
import { CSRF, DIALECTS, givenUser, problem, sessionCookie } from '@ninefold/testkit';
import { describe, expect, it } from 'vitest';
import { LINK_MAIL_JOB, TABLES, buildApp, productJobHandlers } from '../src/index.js';
import { identityWorld, peopleModel, tokenIn } from './identity-world.js';

const NEW_PASSWORD = 'a long and private phrase';

for (const dialect of DIALECTS) {
  describe(`${dialect}: one-time links`, () => {
    it('says plainly why a link does not work', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      const inspect = (token: unknown) => w.call('POST', '/api/links/inspect', { payload: { token } });
      expect(problem(await inspect('A'.repeat(43)))).toMatchObject({ status: 404, code: 'E_LINK_INVALID' });
      expect(problem(await inspect('A'.repeat(500)))).toMatchObject({ status: 404, code: 'E_LINK_INVALID' });
      expect(problem(await inspect(42))).toMatchObject({ status: 422, code: 'E_VALIDATION' });
      expect(problem(await w.call('POST', '/api/links/inspect', { payload: [] }))).toMatchObject({
        status: 400,
        code: 'E_BAD_REQUEST',
      });
      // a link of one purpose does nothing for another
      const ada = await w.signedIn('ada@example.com', ['admin']);
      const created = await w.call('POST', '/api/users', {
        cookie: ada,
        payload: { email: 'zoe@example.com', name: 'Zoe', roles: ['staff'] },
      });
      const token = tokenIn((created.json()[INVITATION_KEY] as InvitationAnswer).link ?? '');
      const reset = await w.call('POST', '/api/password-resets/complete', {
        payload: { token, password: NEW_PASSWORD },
      });
      expect(problem(reset)).toMatchObject({ status: 404, code: 'E_LINK_INVALID' });
      expect((await inspect(token)).statusCode).toBe(200);
    });

    it('works once when two requests race with it', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      await givenUser(w.server, 'ann@example.com', ['staff']);
      await w.call('POST', '/api/password-resets', { payload: { email: 'ann@example.com' } });
      await w.runJobs();
      const [mail] = await w.server.database.db.selectFrom(TABLES.mailOutbox).select('text').execute();
      const token = tokenIn(String(mail?.['text']));
      const answers = await Promise.all(
        ['first phrase of many', 'second phrase of many', 'third phrase of many'].map((password) =>
          w.call('POST', '/api/password-resets/complete', { payload: { token, password } }),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 410, 410]);
      for (const refused of answers.filter((a) => a.statusCode === 410)) {
        expect(problem(refused).code).toBe('E_LINK_USED');
        expect(sessionCookie(refused)).toBeUndefined();
      }
      const sessions = await w.server.database.db.selectFrom(TABLES.sessions).select('method').execute();
      expect(sessions).toEqual([{ method: 'password-reset' }]);
      const completed = await w.server.database.db
        .selectFrom(TABLES.authEvents)
        .select('kind')
        .where('kind', '=', 'password-reset-completed')
        .execute();
      expect(completed).toHaveLength(1);
    });

    it('mails a new secret when its job runs again: the earlier one stops working', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      await givenUser(w.server, 'ann@example.com', ['staff']);
      await w.call('POST', '/api/password-resets', { payload: { email: 'ann@example.com' } });
      const [job] = await w.server.database.db
        .selectFrom(TABLES.jobs)
        .select(['id', 'payload'])
        .where('kind', '=', LINK_MAIL_JOB)
        .execute();
      // the job names the link, never its secret
      expect(Object.keys(JSON.parse(String(job?.['payload'])) as object).sort()).toEqual(['base', 'link']);
      const handler = productJobHandlers({
        model: w.model,
        database: w.server.database,
        files: w.server.files,
        now: w.server.clock.now,
        env: {},
      })[LINK_MAIL_JOB];
      const run = {
        id: 'attempt-1',
        kind: LINK_MAIL_JOB,
        payload: JSON.parse(String(job?.['payload'])) as unknown,
      };
      await handler?.({ ...run } as never, new AbortController().signal);
      await handler?.({ ...run, id: 'attempt-2' } as never, new AbortController().signal);
      const kept = await w.server.database.db
        .selectFrom(TABLES.mailOutbox)
        .select(['job_id', 'text'])
        .orderBy('job_id')
        .execute();
      const [first, second] = kept.map((m) => tokenIn(String(m['text'])));
      expect(first).not.toBe(second);
      const inspect = (token: string | undefined) =>
        w.call('POST', '/api/links/inspect', { payload: { token } });
      expect(problem(await inspect(first))).toMatchObject({ code: 'E_LINK_INVALID' });
      expect((await inspect(second)).statusCode).toBe(200);
    });

    it('never builds a mailed link from the Host header: with SMTP_URL and no public address it refuses', async () => {
      const w = await identityWorld(dialect, peopleModel(), { smtp: false });
      const app = buildApp({
        model: w.model,
        database: w.server.database,
        files: w.server.files,
        now: w.server.clock.now,
        env: { SMTP_URL: 'smtp://127.0.0.1:1' },
      });
      await givenUser(w.server, 'ann@example.com', ['staff']);
      const response = await app.inject({
        method: 'POST',
        url: '/api/password-resets',
        headers: { ...CSRF, host: 'evil.example' },
        payload: { email: 'ann@example.com' },
      });
      expect(response.json()).toMatchObject({ code: 'E_INTERNAL' });
      expect(response.body).not.toContain('evil.example');
      expect(await w.server.database.db.selectFrom(TABLES.links).selectAll().execute()).toEqual([]);
      await app.close();
    });
  });
}
