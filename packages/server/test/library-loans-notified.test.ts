/**
 * The library-loans example's `loan-overdue` notification delivered, on every database: when the
 * clock marks a loan overdue, the product's runner (timers, notifications and mail alike) tells the
 * borrower in the app — their list at `<basePath>/notifications` — and, with no SMTP_URL, by a mail
 * kept in the development outbox; another member is told nothing, in the app or by mail.
 */
import { describe, expect, it } from 'vitest';
import { API_PATHS } from '@ninefold/model';
import { CSRF, DIALECTS, checkedInject, givenUser, login, testServer } from '@ninefold/testkit';
import { JobRunner, productJobHandlers } from '../src/index.js';
import { type Json, exampleModel } from './world.js';

const MINUTE = 60_000;
const model = exampleModel('library-loans.md');
const LOAN = Number(model.constants['LOAN_DAYS']) * 24 * 60 * MINUTE;
const api = (path: string) => `${model.calls.basePath}/${path}`;

for (const dialect of DIALECTS) {
  describe(`${dialect}: library loans tell the borrower`, () => {
    it('tells the borrower of an overdue loan in the app and by mail, and no other member', async () => {
      const server = await testServer(dialect, model);
      const people = { lena: ['librarian'], mia: ['member'], max: ['member'] } as const;
      const ids: Record<string, string> = {};
      for (const [name, roles] of Object.entries(people))
        ids[name] = (await givenUser(server, `${name}@example.com`, roles)).id;
      const as = async (name: keyof typeof people, method: 'GET' | 'POST', url: string, payload?: Json) => {
        const { cookie } = await login(server.app, `${name}@example.com`);
        const response = await checkedInject(server.app, model, {
          method,
          url,
          headers: { ...CSRF, cookie: cookie! },
          ...(payload === undefined ? {} : { payload }),
        });
        expect(response.statusCode, response.body).toBeLessThan(300);
        return response.json<unknown>();
      };
      // no SMTP_URL: mail is kept in the development outbox
      const handlers = productJobHandlers({
        model,
        database: server.database,
        files: server.files,
        now: server.clock.now,
        env: {},
      });
      const runner = new JobRunner({ database: server.database, now: server.clock.now, handlers });
      const runAll = async () => {
        let total = 0;
        for (let ran = await runner.runDue(); ran > 0; ran = await runner.runDue()) total += ran;
        return total;
      };

      const book = (await as('lena', 'POST', api('books'), {
        title: 'The Odyssey',
        author: 'Homer',
        isbn: '9780140449136',
        shelf: 'CL2',
      })) as Json;
      const loan = (await as('mia', 'POST', api('loans'), { book: book['id'], barcode: 'C00123' })) as Json;
      const inboxOf = async (name: keyof typeof people) =>
        ((await as(name, 'GET', api(API_PATHS.notifications))) as { items: Json[] }).items;
      const outbox = async () =>
        ((await as('lena', 'GET', api(API_PATHS.mailOutbox))) as { data: Json[] }).data;

      // not yet due: nobody is told
      server.clock.advance(LOAN - MINUTE);
      await runAll();
      expect(await inboxOf('mia')).toEqual([]);
      expect(await outbox()).toEqual([]);

      // due: the timer marks it overdue, the change's effects job fans out its notification, whose
      // job tells Mia and writes her mail job, which keeps her mail
      server.clock.advance(2 * MINUTE);
      expect(await runAll()).toBe(4);
      const loanNow = (await as('lena', 'GET', `${api('loans')}/${String(loan['id'])}`)) as Json;
      expect(loanNow['state']).toBe('overdue');
      expect(await inboxOf('mia')).toEqual([
        expect.objectContaining({
          notification: 'loan-overdue',
          entity: 'Loan',
          recordId: loan['id'],
          subject: 'A book you borrowed is overdue',
          message: expect.stringContaining('Your loan is past its due time.') as unknown,
          readAt: null,
        }),
      ]);
      const mails = await outbox();
      expect(mails.map((mail) => [mail['to'], mail['subject']])).toEqual([
        ['mia@example.com', 'A book you borrowed is overdue'],
      ]);
      // Max borrowed nothing: no notification, no mail; the librarian is not named either
      expect(await inboxOf('max')).toEqual([]);
      expect(await inboxOf('lena')).toEqual([]);
      expect(mails.map((mail) => mail['to'])).not.toContain('max@example.com');
    });
  });
}
