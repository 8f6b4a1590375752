/**
 * Notifications in the app, on every database: a transition tells the users its notification names
 * with the subject and message rendered for each; the person who made the change is not told; a
 * user who may not read the record (no read on the entity, or a row condition false) is never told;
 * a field a recipient may not read never appears in their text; a user may turn a notification off,
 * never a mandatory one; a second run of the same job writes nothing twice; a change that rolls back
 * leaves no job; and each user reads, pages and marks only their own.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS, problem } from '@ninefold/testkit';
import { NOTIFY_JOB, MAIL_JOB, TABLES, disableUser } from '../src/index.js';
import { recordEffects } from '../src/effects/record-effects.js';
import { claimJobs } from '../src/jobs/store.js';
import { helpDesk, helpDeskWorld, inbox, jobsOf, notification, onTransition } from './notifications-world.js';

const MINUTE = 60_000;

for (const dialect of DIALECTS) {
  describe(`${dialect}: notifications in the app`, () => {
    it('tells the named users who may read the ticket, each with what they may read, and not the actor', async () => {
      const w = await helpDeskWorld(dialect, helpDesk(notification('ticket-answered')));
      const { ann, bob, cid, dee, eve } = w.people;
      const ticket = await w.answeredTicket({
        subject: 'Printer jam',
        secret: 'door code 1234',
        requester: cid.id,
        watchers: [dee.id, eve.id],
      });
      expect(await jobsOf(w.server, NOTIFY_JOB, 'pending')).toHaveLength(1);
      expect(await w.runAll()).toBe(1);
      expect((await jobsOf(w.server, NOTIFY_JOB, 'done')).length).toBe(1);

      // an agent (by role) reads everything; the customer who asked reads the ticket without its secret
      const bobs = await inbox(bob);
      expect(bobs.unread).toBe(1);
      expect(bobs.items).toEqual([
        expect.objectContaining({
          notification: 'ticket-answered',
          entity: 'Ticket',
          recordId: ticket['id'],
          subject: 'Your ticket “Printer jam” was answered',
          message: 'ann answered: Printer jam door code 1234',
          readAt: null,
        }),
      ]);
      const cids = await inbox(cid);
      expect(cids.items.map((n) => n['message'])).toEqual(['ann answered: Printer jam ']);
      expect(JSON.stringify(cids)).not.toContain('1234');
      // Ann answered: she is not told; Dee may not read another's ticket; Eve may not read tickets
      for (const person of [ann, dee, eve]) expect((await inbox(person)).items, person.email).toEqual([]);
      const rows = await w.server.database.db.selectFrom(TABLES.notifications).selectAll().execute();
      expect(rows.map((row) => row['user_id']).sort()).toEqual([bob.id, cid.id].sort());
    });

    it('tells no disabled user', async () => {
      const w = await helpDeskWorld(dialect, helpDesk(notification('ticket-answered')));
      const { bob, cid } = w.people;
      await disableUser(w.server.database, w.server.model, bob.email);
      await w.answeredTicket({ subject: 'Desk lamp', requester: cid.id });
      await w.runAll();
      const rows = await w.server.database.db.selectFrom(TABLES.notifications).selectAll().execute();
      expect(rows.map((row) => row['user_id'])).toEqual([cid.id]);
    });

    it('is sent by the system too, and then tells everyone it names', async () => {
      const model = helpDesk(notification('ticket-answered', { message: '{user.name}|{subject}' }));
      const w = await helpDeskWorld(dialect, model);
      const { ann, bob } = w.people;
      const ticket = await ann.send('POST', '/api/tickets', { subject: 'Fax' });
      const record = { ...ticket, state: 'answered' } as Record<string, string>;
      await w.server.database.db.transaction().execute(async (tx) => {
        await recordEffects(tx, model, {
          entity: 'Ticket',
          kind: 'transition',
          transition: 'answer',
          before: ticket as Record<string, string>,
          after: record,
          actor: null,
          now: w.server.clock.now(),
        });
      });
      await w.runAll();
      expect((await inbox(ann)).items.map((n) => n['message'])).toEqual(['|Fax']);
      expect((await inbox(bob)).items.map((n) => n['message'])).toEqual(['|Fax']);
    });

    it('is sent when the clock fires a transition, as the system', async () => {
      const closed = notification('ticket-closed', {
        on: [onTransition('Ticket', 'autoClose')],
        to: [{ kind: 'user', field: 'requester' }],
        subject: 'Closed: {subject}',
        message: '{subject} was closed{user.name}.',
      });
      const w = await helpDeskWorld(dialect, helpDesk(closed));
      const { cid } = w.people;
      await w.answeredTicket({ subject: 'Webcam', requester: cid.id });
      expect(await w.runAll()).toBe(0);
      w.server.clock.advance(7 * 24 * 60 * MINUTE);
      expect(await w.runAll()).toBe(2); // the timer, then its notification
      await cid.signInAgain();
      expect((await inbox(cid)).items.map((n) => [n['subject'], n['message']])).toEqual([
        ['Closed: Webcam', 'Webcam was closed.'],
      ]);
    });

    it('writes no job for a change that rolls back, nor for a refused one', async () => {
      const model = helpDesk(notification('ticket-answered'));
      const w = await helpDeskWorld(dialect, model);
      const { ann, cid } = w.people;
      const ticket = await ann.send('POST', '/api/tickets', { subject: 'Scanner', requester: cid.id });
      const refused = await cid.call(
        'POST',
        `/api/tickets/${String(ticket['id'])}/transitions/answer`,
        {},
        { 'if-match': `"${String(ticket['version'])}"` },
      );
      expect(refused.statusCode).toBe(403);
      await w.runner.fanOut();
      expect(await jobsOf(w.server, NOTIFY_JOB)).toHaveLength(0);

      const change = {
        entity: 'Ticket',
        kind: 'transition' as const,
        transition: 'answer',
        before: ticket as Record<string, string>,
        after: { ...ticket, state: 'answered' } as Record<string, string>,
        actor: ann.id,
        now: w.server.clock.now(),
      };
      await expect(
        w.server.database.db.transaction().execute(async (tx) => {
          await recordEffects(tx, model, change);
          throw new Error('the write fails after its effects');
        }),
      ).rejects.toThrow('the write fails after its effects');
      expect(await w.runner.fanOut()).toBe(0);
      expect(await jobsOf(w.server, NOTIFY_JOB)).toHaveLength(0);
      // the same change committed writes its job: the rollback, not the change, left none
      await w.server.database.db.transaction().execute((tx) => recordEffects(tx, model, change));
      expect(await w.runner.fanOut()).toBe(1);
      expect(await jobsOf(w.server, NOTIFY_JOB)).toHaveLength(1);
    });

    it('writes nothing twice when a second runner runs the same job', async () => {
      const model = helpDesk(notification('ticket-answered', { channels: ['app', 'email'] }));
      const w = await helpDeskWorld(dialect, model);
      const { bob, cid } = w.people;
      await w.answeredTicket({ subject: 'Projector', requester: cid.id });
      const { database, clock } = w.server;
      const now = clock.now();
      // runner A claims the job, its lease runs out, runner B claims it again
      const [first] = await claimJobs(
        database,
        'runner-a',
        [NOTIFY_JOB],
        now,
        new Date(now.getTime() + 1),
        1,
      );
      clock.advance(MINUTE);
      const later = clock.now();
      const [second] = await claimJobs(
        database,
        'runner-b',
        [NOTIFY_JOB],
        later,
        new Date(later.getTime() + 5 * MINUTE),
        1,
      );
      expect(first?.id).toBe(second?.id);
      const handler = w.handlers[NOTIFY_JOB]!;
      const signal = new AbortController().signal;
      await expect(handler(first!, signal)).rejects.toThrow(/Another runner/);
      expect(await database.db.selectFrom(TABLES.notifications).selectAll().execute()).toHaveLength(0);
      await handler(second!, signal);
      // its mails are sent (kept in the outbox here), which frees their keys
      await w.runAll();
      await handler(second!, signal);
      await w.runAll();
      const rows = await database.db.selectFrom(TABLES.notifications).selectAll().execute();
      expect(rows.map((row) => row['user_id']).sort()).toEqual([bob.id, cid.id].sort());
      expect(await jobsOf(w.server, MAIL_JOB)).toHaveLength(2);
      expect(await database.db.selectFrom(TABLES.mailOutbox).selectAll().execute()).toHaveLength(2);
      expect((await jobsOf(w.server, NOTIFY_JOB, 'done')).length).toBe(1);
    });

    it('lets a user turn a notification off, never a mandatory one', async () => {
      const model = helpDesk(
        notification('ticket-answered'),
        notification('ticket-escalated', { mandatory: true, message: 'Escalated: {subject}' }),
      );
      const w = await helpDeskWorld(dialect, model);
      const { bob, cid } = w.people;
      expect(await bob.send('GET', '/api/notifications/settings')).toEqual([
        { notification: 'ticket-answered', enabled: true, mandatory: false },
        { notification: 'ticket-escalated', enabled: true, mandatory: true },
      ]);
      const off = await bob.send('PUT', '/api/notifications/settings', [
        { notification: 'ticket-answered', enabled: false },
      ]);
      expect(off).toEqual([
        { notification: 'ticket-answered', enabled: false, mandatory: false },
        { notification: 'ticket-escalated', enabled: true, mandatory: true },
      ]);

      const mandatory = await bob.call('PUT', '/api/notifications/settings', [
        { notification: 'ticket-escalated', enabled: false },
      ]);
      expect(mandatory.statusCode).toBe(422);
      expect(problem(mandatory).code).toBe('E_MANDATORY_NOTIFICATION');
      const unknown = await bob.call('PUT', '/api/notifications/settings', [
        { notification: 'ticket-lost', enabled: false },
      ]);
      expect(unknown.statusCode).toBe(422);
      expect(problem(unknown).code).toBe('E_UNKNOWN_NOTIFICATION');
      const nul = await bob.call('PUT', '/api/notifications/settings', [
        { notification: 'ticket\u0000answered', enabled: false },
      ]);
      expect(problem(nul).code).toBe('E_UNKNOWN_NOTIFICATION');
      for (const body of [
        { notification: 'ticket-answered' },
        [{ notification: 'ticket-answered' }],
        [{ notification: 'ticket-answered', enabled: false, extra: 1 }],
        [1],
      ]) {
        const malformed = await bob.call('PUT', '/api/notifications/settings', body);
        expect(malformed.statusCode, JSON.stringify(body)).toBe(400);
        expect(problem(malformed).code).toBe('E_BAD_REQUEST');
      }
      // a refused change changes nothing
      expect(await bob.send('GET', '/api/notifications/settings')).toEqual(off);

      await w.answeredTicket({ subject: 'Monitor', requester: cid.id });
      await w.runAll();
      expect((await inbox(bob)).items.map((n) => n['notification'])).toEqual(['ticket-escalated']);
      expect((await inbox(cid)).items.map((n) => n['notification']).sort()).toEqual([
        'ticket-answered',
        'ticket-escalated',
      ]);
      // on again: told again
      await bob.send('PUT', '/api/notifications/settings', [
        { notification: 'ticket-answered', enabled: true },
      ]);
      await w.answeredTicket({ subject: 'Keyboard', requester: cid.id });
      await w.runAll();
      expect((await inbox(bob)).items.filter((n) => n['notification'] === 'ticket-answered')).toHaveLength(1);
    });

    it('lists only a user’s own, newest first, in pages, and marks them read', async () => {
      const w = await helpDeskWorld(
        dialect,
        helpDesk(notification('ticket-answered', { message: '{subject}' })),
      );
      const { bob, cid } = w.people;
      for (const subject of ['First', 'Second', 'Third']) {
        await w.answeredTicket({ subject, requester: cid.id });
        w.server.clock.advance(MINUTE);
      }
      await w.runAll();
      const page = await inbox(bob, '?limit=2');
      expect(page.items.map((n) => n['message'])).toEqual(['Third', 'Second']);
      expect(page.unread).toBe(3);
      expect(page.next).toBe(page.items[1]?.['id']);
      const rest = await inbox(bob, `?limit=2&before=${page.next}`);
      expect(rest.items.map((n) => n['message'])).toEqual(['First']);
      expect(rest.next).toBeNull();

      const [third] = page.items;
      const read = await bob.send('POST', `/api/notifications/${String(third?.['id'])}/read`);
      expect(read['readAt']).toBe(w.server.clock.now().toISOString());
      expect((await inbox(bob)).unread).toBe(2);
      // someone else's, or none at all: not found, and not marked
      const cids = await inbox(cid);
      const theirs = await bob.call('POST', `/api/notifications/${String(cids.items[0]?.['id'])}/read`);
      expect(theirs.statusCode).toBe(404);
      expect(problem(theirs).code).toBe('E_NOT_FOUND');
      expect((await inbox(cid)).unread).toBe(3);
      for (const id of ['01a2083f-4eae-7b1c-9f18-aa1aee947676', '%00', 'x'.repeat(36)]) {
        const none = await bob.call('POST', `/api/notifications/${id}/read`);
        expect(none.statusCode, id).toBe(404);
        expect(problem(none).code).toBe('E_NOT_FOUND');
      }
      // a cursor that is not one of theirs, a limit out of range
      for (const query of [
        `?before=${String(cids.items[0]?.['id'])}`,
        '?limit=0',
        '?limit=101',
        '?limit=x',
      ]) {
        const bad = await bob.call('GET', `/api/notifications${query}`);
        expect(bad.statusCode, query).toBe(400);
        expect(problem(bad).code).toBe('E_INVALID_QUERY');
      }

      await bob.send('POST', '/api/notifications/read');
      const all = await inbox(bob);
      expect(all.unread).toBe(0);
      expect(all.items.every((n) => n['readAt'] !== null)).toBe(true);
      expect((await inbox(cid)).unread).toBe(3);
    });

    it('needs a session for every route, and the CSRF header for every change', async () => {
      const w = await helpDeskWorld(dialect, helpDesk(notification('ticket-answered')));
      const app = w.server.app;
      for (const [method, url] of [
        ['GET', '/api/notifications'],
        ['GET', '/api/notifications/settings'],
        ['POST', '/api/notifications/read'],
      ] as const) {
        const response = await app.inject({ method, url, headers: { 'x-ninefold-csrf': '1' } });
        expect(response.statusCode, url).toBe(401);
      }
      const noCsrf = await w.people.bob.call('POST', '/api/notifications/read', undefined, {
        'x-ninefold-csrf': '',
      });
      expect(noCsrf.statusCode).toBe(403);
      expect(problem(noCsrf).code).toBe('E_CSRF');
    });
  });
}
