/**
 * Webhook deliveries on every database, to a real receiver that checks each signature with the
 * `standardwebhooks` package: create, edit, delete and transition events are delivered with their type, record
 * and actor (none for a timed transition); a failed attempt is retried and counted; one record's
 * deliveries arrive in the order written even while the receiver fails and two runners claim at
 * once; a redirect fails and is not followed; a receiver that does not answer times out; a change
 * that rolls back sends nothing; a delivery that never succeeds fails for good after a day and more.
 * The runner is driven by `runDue()` on the test's clock.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS, opensTwice, reopen } from '@ninefold/testkit';
import {
  EFFECTS_JOB,
  JobRunner,
  TABLES,
  WEBHOOK_BACKOFF,
  WEBHOOK_MAX_ATTEMPTS,
  productJobHandlers,
  retryDelayMs,
} from '../src/index.js';
import { recordEffects } from '../src/effects/record-effects.js';
import { HOUR, hookWorld } from './webhook-world.js';

const LATER = WEBHOOK_BACKOFF.capMs + HOUR;

describe('the webhook retry policy', () => {
  it('retries for at least 24 hours even when every wait is the shortest its jitter allows', () => {
    let waited = 0;
    for (let attempt = 1; attempt < WEBHOOK_MAX_ATTEMPTS; attempt += 1)
      waited += retryDelayMs(attempt, WEBHOOK_BACKOFF, () => 0);
    expect(waited).toBeGreaterThanOrEqual(24 * HOUR);
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: webhook deliveries`, () => {
    it('delivers created and transition events, signed, with the record as an admin sees it and the actor', async () => {
      const world = await hookWorld(dialect, ['created', 'pay']);
      const claim = await world.create('Taxi');
      const submitted = await world.fire(claim, 'submit');
      const paid = await world.fire(submitted, 'pay');
      // one record's deliveries go one at a time
      expect(await world.runner.runDue()).toBe(1);
      expect(await world.runner.runDue()).toBe(1);

      const received = world.receiver.received;
      expect(received.map((r) => [r.error, r.verified?.type])).toEqual([
        [null, 'Claim.created'],
        [null, 'Claim.pay'],
      ]);
      const [created, pay] = received;
      expect(created?.headers['content-type']).toBe('application/json');
      expect(pay?.verified?.timestamp).toBe(world.server.clock.now().toISOString());
      expect(pay?.verified?.data).toEqual({
        entity: 'Claim',
        id: claim['id'],
        record: expect.objectContaining({
          id: claim['id'],
          title: 'Taxi',
          state: 'paid',
          version: paid['version'],
        }),
        actor: { id: world.cal.id, name: 'cal', email: 'cal@example.com' },
      });
      expect(created?.verified?.data.record).toMatchObject({ state: 'draft', createdBy: world.cal.id });

      const log = await world.deliveries();
      // newest first; each delivery's id is the webhook-id its receiver got
      expect(
        log.map((d) => [d['event'], d['state'], d['attempts'], d['lastStatus'], d['lastAnswer']]),
      ).toEqual([
        ['Claim.pay', 'delivered', 1, 200, 'thanks'],
        ['Claim.created', 'delivered', 1, 200, 'thanks'],
      ]);
      expect(log.map((d) => d['id'])).toEqual([pay?.headers['webhook-id'], created?.headers['webhook-id']]);
      expect(log[0]).toMatchObject({ webhook: 'accounting', entity: 'Claim', recordId: claim['id'] });
    });

    it('tells of an edit with the record after it, and of a delete with the record before it', async () => {
      const world = await hookWorld(dialect, ['updated', 'deleted']);
      const claim = await world.create('Taxi');
      const edited = await world.call(
        'cal',
        'PATCH',
        `/api/claims/${String(claim['id'])}`,
        { title: 'Cab' },
        1,
      );
      expect(edited.statusCode, edited.body).toBe(200);
      const removed = await world.call('cal', 'DELETE', `/api/claims/${String(claim['id'])}`, undefined, 2);
      expect(removed.statusCode, removed.body).toBe(204);
      await world.runner.runDue();
      await world.runner.runDue();
      expect(
        world.receiver.received.map((r) => [
          r.verified?.type,
          r.verified?.data.record['title'],
          r.verified?.data.record['version'],
        ]),
      ).toEqual([
        ['Claim.updated', 'Cab', 2],
        ['Claim.deleted', 'Cab', 2],
      ]);
      expect(world.receiver.received[1]?.verified?.data.id).toBe(claim['id']);
    });

    it('tells of a timed transition with no actor: the system made it', async () => {
      const world = await hookWorld(dialect, ['expire']);
      await world.fire(await world.create('Hotel'), 'submit');
      world.server.clock.advance(25 * HOUR);
      expect(await world.runner.runDue()).toBe(1); // the timer, which writes the delivery
      expect(await world.runner.runDue()).toBe(1); // the delivery
      expect(world.receiver.received.map((r) => r.verified?.type)).toEqual(['Claim.expire']);
      expect(world.receiver.received[0]?.verified?.data).toMatchObject({
        actor: null,
        record: { state: 'expired' },
      });
    });

    it('retries a failed attempt later with the same webhook-id, and counts the attempts', async () => {
      const world = await hookWorld(dialect, ['created']);
      world.receiver.answers.push({ status: 500, body: 'down for maintenance' });
      await world.create('Train');
      await world.runner.runDue();
      expect(await world.deliveries()).toMatchObject([
        { state: 'pending', attempts: 1, lastStatus: 500, lastAnswer: 'down for maintenance' },
      ]);
      expect(await world.runner.runDue()).toBe(0); // not before its backoff
      world.server.clock.advance(LATER);
      expect(await world.runner.runDue()).toBe(1);
      expect(await world.deliveries()).toMatchObject([
        { state: 'delivered', attempts: 2, lastStatus: 200, lastAnswer: 'thanks' },
      ]);
      const [first, second] = world.receiver.received;
      expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
      expect(second?.body).toBe(first?.body);
      expect([first?.error, second?.error]).toEqual([null, null]);
    });

    it('keeps one record’s deliveries in order while the receiver fails, and lets other records through', async () => {
      const world = await hookWorld(dialect, ['created', 'submit', 'pay']);
      let flightFailures = 0;
      world.receiver.decide = (request) =>
        request.verified?.data.record['title'] === 'Flight' && ++flightFailures <= 2
          ? { status: 503 }
          : { status: 200 };
      const claim = await world.create('Flight');
      await world.fire(await world.fire(claim, 'submit'), 'pay');
      const other = await world.create('Ferry');
      await world.runner.runDue();
      // the first of Flight failed; Flight's later two wait, and Ferry's went through
      const first = world.receiver.received.map(
        (r) => `${String(r.verified?.data.record['title'])} ${r.verified?.type}`,
      );
      expect(first.sort()).toEqual(['Ferry Claim.created', 'Flight Claim.created']);
      expect(other['title']).toBe('Ferry');
      for (let round = 0; round < 5; round += 1) {
        world.server.clock.advance(LATER);
        await world.runner.runDue();
      }
      const flight = world.receiver.received.filter((r) => r.verified?.data.record['title'] === 'Flight');
      expect(flight.map((r) => r.verified?.type)).toEqual([
        'Claim.created',
        'Claim.created',
        'Claim.created',
        'Claim.submit',
        'Claim.pay',
      ]);
      expect((await world.deliveries()).map((d) => d['state'])).toEqual([
        'delivered',
        'delivered',
        'delivered',
        'delivered',
      ]);
    });

    // two connections to one database: a SQLite file or a PostgreSQL server (PGlite opens once)
    if (opensTwice(dialect))
      it('keeps the order when two runners, each with its own connection, claim at the same time', async () => {
        const world = await hookWorld(dialect, ['created', 'submit', 'pay']);
        world.receiver.delayMs = 30;
        let claim = await world.create('Bus');
        claim = await world.fire(claim, 'submit');
        await world.fire(claim, 'pay');
        const database = await reopen(world.server.target);
        const handlers = productJobHandlers({
          model: world.model,
          database,
          files: world.server.files,
          now: world.server.clock.now,
          env: world.env,
        });
        const other = new JobRunner({ database, now: world.server.clock.now, handlers });
        for (let round = 0; round < 6; round += 1)
          await Promise.all([world.runner.runDue(), other.runDue(), world.runner.runDue(), other.runDue()]);
        expect(world.receiver.received.map((r) => r.verified?.type)).toEqual([
          'Claim.created',
          'Claim.submit',
          'Claim.pay',
        ]);
        expect(world.receiver.maxInFlight()).toBe(1);
      });

    it('fails an attempt on a redirect, and does not follow it', async () => {
      const world = await hookWorld(dialect, ['created']);
      const elsewhere = world.receiver.url.replace('/hook', '/elsewhere');
      world.receiver.answers.push({ status: 302, location: elsewhere, body: 'moved' });
      await world.create('Taxi');
      await world.runner.runDue();
      expect(world.receiver.received.map((r) => r.path)).toEqual(['/hook']);
      const [delivery] = await world.deliveries();
      expect(delivery).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 302 });
      expect(delivery?.['lastAnswer']).toBe(`A redirect to ${elsewhere} (not followed). moved`);
    });

    it('fails an attempt when the receiver does not answer in time', async () => {
      const world = await hookWorld(dialect, ['created'], { timeoutMs: 300 });
      world.receiver.answers.push('hang');
      await world.create('Taxi');
      const started = Date.now();
      await world.runner.runDue();
      expect(Date.now() - started).toBeLessThan(5000);
      expect(await world.deliveries()).toMatchObject([
        {
          state: 'pending',
          attempts: 1,
          lastStatus: null,
          lastAnswer: 'The receiver did not answer within 300 ms.',
        },
      ]);
      world.server.clock.advance(LATER);
      await world.runner.runDue();
      expect(await world.deliveries()).toMatchObject([{ state: 'delivered', attempts: 2 }]);
    });

    it('sends nothing for a change that rolls back', async () => {
      const world = await hookWorld(dialect, ['created']);
      const now = world.server.clock.now();
      const record = { id: '01900000-0000-7000-8000-000000000001', title: 'Ghost', state: 'draft' };
      await expect(
        world.server.database.db.transaction().execute(async (tx) => {
          await recordEffects(tx, world.model, {
            entity: 'Claim',
            kind: 'created',
            transition: null,
            before: null,
            after: record,
            actor: world.cal.id,
            now,
          });
          // the change's one outbox row, fanned out into its delivery once the change commits
          expect(
            await tx.selectFrom(TABLES.jobs).selectAll().where('kind', '=', EFFECTS_JOB).execute(),
          ).toHaveLength(1);
          throw new Error('the write failed after its effects');
        }),
      ).rejects.toThrow('the write failed');
      expect(await world.runner.runDue()).toBe(0);
      expect(world.receiver.received).toEqual([]);
      expect(await world.jobs()).toEqual([]);
      expect(await world.deliveries()).toEqual([]);
    });

    it('fails a delivery for good after its last attempt, more than a day after its first', async () => {
      const world = await hookWorld(dialect, ['created']);
      for (let i = 0; i < WEBHOOK_MAX_ATTEMPTS; i += 1) world.receiver.answers.push({ status: 500 });
      await world.create('Taxi');
      await world.runner.fanOut();
      const first = world.server.clock.now().getTime();
      for (let attempt = 1; attempt <= WEBHOOK_MAX_ATTEMPTS; attempt += 1) {
        const [job] = await world.jobs();
        // to the very time it is due: the waits are the policy's, not the test's
        const due = Number(job?.['run_at']);
        world.server.clock.advance(Math.max(0, due - world.server.clock.now().getTime()));
        expect(await world.runner.runDue()).toBe(1);
      }
      expect(world.server.clock.now().getTime() - first).toBeGreaterThanOrEqual(24 * HOUR);
      expect(world.receiver.received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
      expect(await world.deliveries()).toMatchObject([
        { state: 'failed', attempts: WEBHOOK_MAX_ATTEMPTS, lastStatus: 500 },
      ]);
      expect((await world.jobs()).map((job) => job['state'])).toEqual(['dead']);
      world.server.clock.advance(LATER);
      expect(await world.runner.runDue()).toBe(0);
    });
  });
}
