/**
 * The outbox of a change's effects, on every database: a change that a notification or webhook
 * listens to writes exactly one `ninefold.effects` job in its transaction, whatever the number of
 * effects, and none when nothing listens or the change rolls back; the fan-out writes each
 * notification's job and each delivery once, even when two runners run the same fan-out job; and
 * one record's fan-outs run in the order their changes were written, so its deliveries do too.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '@ninefold/testkit';
import { EFFECTS_JOB, NOTIFY_JOB, TABLES, WEBHOOK_JOB, productJobHandlers } from '../src/index.js';
import { recordEffects } from '../src/effects/record-effects.js';
import { claimJobs } from '../src/jobs/store.js';
import { helpDesk, helpDeskWorld, jobsOf, notification } from './notifications-world.js';
import { hookWorld } from './webhook-world.js';

const MINUTE = 60_000;

for (const dialect of DIALECTS) {
  describe(`${dialect}: the fan-out of a change's effects`, () => {
    it('writes one outbox job per change however many notifications listen, none when none does', async () => {
      const model = helpDesk(notification('first'), notification('second'), notification('third'));
      const w = await helpDeskWorld(dialect, model);
      const { ann, cid } = w.people;
      // nothing listens to a ticket's create
      const ticket = await ann.send('POST', '/api/tickets', { subject: 'Fax', requester: cid.id });
      expect(await jobsOf(w.server, EFFECTS_JOB)).toHaveLength(0);
      await ann.send(
        'POST',
        `/api/tickets/${String(ticket['id'])}/transitions/answer`,
        {},
        { 'if-match': `"${String(ticket['version'])}"` },
      );
      const [outbox, ...more] = await jobsOf(w.server, EFFECTS_JOB, 'pending');
      expect(more).toEqual([]);
      expect(outbox?.['sequence']).toBe(`effects/Ticket/${String(ticket['id'])}`);
      expect(await jobsOf(w.server, NOTIFY_JOB)).toHaveLength(0);

      expect(await w.runner.fanOut()).toBe(1);
      const notified = await jobsOf(w.server, NOTIFY_JOB, 'pending');
      expect(notified.map((job) => JSON.parse(String(job['payload'])).notification).sort()).toEqual([
        'first',
        'second',
        'third',
      ]);
      expect(await jobsOf(w.server, EFFECTS_JOB, 'done')).toHaveLength(1);
    });

    it('writes no outbox job for a change that rolls back, nor for a refused one', async () => {
      const world = await hookWorld(dialect, ['created', 'submit']);
      const refused = await world.call('cal', 'POST', '/api/claims', { amount: 3 });
      expect(refused.statusCode).toBe(422);
      const record = { id: '01900000-0000-7000-8000-000000000002', title: 'Ghost', state: 'draft' };
      const change = {
        entity: 'Claim',
        kind: 'created' as const,
        transition: null,
        before: null,
        after: record,
        actor: world.cal.id,
        now: world.server.clock.now(),
      };
      await expect(
        world.server.database.db.transaction().execute(async (tx) => {
          await recordEffects(tx, world.model, change);
          throw new Error('the write failed after its effects');
        }),
      ).rejects.toThrow('the write failed');
      expect(await world.runner.fanOut()).toBe(0);
      expect(await jobsOf(world.server, EFFECTS_JOB)).toEqual([]);
      expect(await world.jobs()).toEqual([]);
      // committed, the same change writes its one job
      await world.server.database.db.transaction().execute((tx) => recordEffects(tx, world.model, change));
      expect(await jobsOf(world.server, EFFECTS_JOB)).toHaveLength(1);
    });

    it('writes each delivery once when a second runner runs the same fan-out job', async () => {
      const world = await hookWorld(dialect, ['created']);
      const { database, clock } = world.server;
      await world.create('Taxi');
      const now = clock.now();
      // runner A claims the fan-out, its lease runs out, runner B claims it again
      const [first] = await claimJobs(
        database,
        'runner-a',
        [EFFECTS_JOB],
        now,
        new Date(now.getTime() + 1),
        1,
      );
      clock.advance(MINUTE);
      const later = clock.now();
      const [second] = await claimJobs(
        database,
        'runner-b',
        [EFFECTS_JOB],
        later,
        new Date(later.getTime() + 5 * MINUTE),
        1,
      );
      expect(first?.id).toBe(second?.id);
      const handlers = productJobHandlers({
        model: world.model,
        database,
        files: world.server.files,
        now: clock.now,
        env: world.env,
      });
      const fanOut = handlers[EFFECTS_JOB]!;
      const signal = new AbortController().signal;
      await expect(fanOut(first!, signal)).rejects.toThrow(/Another runner/);
      expect(await database.db.selectFrom(TABLES.webhookDeliveries).selectAll().execute()).toEqual([]);
      await fanOut(second!, signal);
      await fanOut(second!, signal); // done before: writes nothing
      expect(await world.jobs()).toHaveLength(1);
      expect(await world.runner.runDue()).toBe(1);
      expect(world.receiver.received.map((r) => r.verified?.type)).toEqual(['Claim.created']);
      expect(await world.deliveries()).toMatchObject([{ event: 'Claim.created', state: 'delivered' }]);
    });

    it('fans one record’s changes out in the order written, so its deliveries keep that order', async () => {
      const world = await hookWorld(dialect, ['created', 'submit', 'pay']);
      const claim = await world.fire(await world.fire(await world.create('Taxi'), 'submit'), 'pay');
      const other = await world.create('Hotel');
      const { database, clock } = world.server;
      const now = clock.now();
      // one fan-out per record at a time: the first change of each record, never a later one
      const claimed = await claimJobs(
        database,
        'runner-a',
        [EFFECTS_JOB],
        now,
        new Date(now.getTime() + MINUTE),
        10,
      );
      expect(claimed.map((job) => (job.payload as { kind: string }).kind).sort()).toEqual([
        'created',
        'created',
      ]);
      expect(claimed.map((job) => job.sequence).sort()).toEqual(
        [`effects/Claim/${String(claim['id'])}`, `effects/Claim/${String(other['id'])}`].sort(),
      );
      clock.advance(2 * MINUTE); // runner A's leases run out; the next runner takes them over
      expect(await world.runner.fanOut()).toBe(4);
      expect(await world.jobs()).toHaveLength(4);
      while ((await world.runner.runDue()) > 0);
      const told = world.receiver.received.filter((r) => r.verified?.data.id === claim['id']);
      expect(told.map((r) => r.verified?.type)).toEqual(['Claim.created', 'Claim.submit', 'Claim.pay']);
      expect(world.receiver.received).toHaveLength(4);
      const kinds = await database.db.selectFrom(TABLES.jobs).select('kind').execute();
      expect(kinds.filter((row) => row.kind === WEBHOOK_JOB)).toHaveLength(4);
    });
  });
}
