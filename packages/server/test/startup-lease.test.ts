/**
 * The start-up lease (decision 0023) on every database: one holder at a time, the next one waits
 * and says so, a lease its holder stopped renewing is taken over, and a wait that lasts too long
 * ends with a plain error. (Two processes racing through `ninefold start --demo` are the fault
 * suite's, `faults/start-race.faults.ts`.)
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase } from '@ninefold/testkit';
import { TABLES, acquireStartupLease } from '@ninefold/server';

const settled = async (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

for (const dialect of DIALECTS) {
  describe(`${dialect}: the start-up lease`, () => {
    it('is held by one at a time: the next waits, says so, and takes it when it is given back', async () => {
      const { database } = await freshDatabase(dialect);
      const first = await acquireStartupLease(database, 'demo');
      let waited = 0;
      const second = acquireStartupLease(database, 'demo', { onWait: () => (waited += 1) });
      expect(await settled(second, 400)).toBe(false);
      expect(waited).toBe(1);
      await first.release();
      expect(await settled(second, 2000)).toBe(true);
      // another name is another lease
      const other = await acquireStartupLease(database, 'other');
      await other.release();
      await (await second).release();
    });

    it('renews the lease while it is held, and takes over one its holder stopped renewing', async () => {
      const { database } = await freshDatabase(dialect);
      const held = await acquireStartupLease(database, 'demo');
      const renewedAt = async () =>
        Date.parse(
          String(
            (
              await database.db
                .selectFrom(TABLES.leases)
                .select('renewed_at')
                .where('name', '=', 'demo')
                .executeTakeFirstOrThrow()
            ).renewed_at,
          ),
        );
      const before = await renewedAt();
      await new Promise((resolve) => setTimeout(resolve, 1300));
      expect(await renewedAt()).toBeGreaterThan(before);
      await held.release();

      // an instance that died holding it: renewed a minute ago, by no one alive
      await database.db
        .insertInto(TABLES.leases)
        .values({ name: 'demo', holder: 'gone', renewed_at: new Date(Date.now() - 60_000).toISOString() })
        .execute();
      let waited = 0;
      const taken = await acquireStartupLease(database, 'demo', { onWait: () => (waited += 1) });
      expect(waited).toBe(0);
      const row = await database.db
        .selectFrom(TABLES.leases)
        .select('holder')
        .where('name', '=', 'demo')
        .executeTakeFirstOrThrow();
      expect(row.holder).not.toBe('gone');
      await taken.release();
    });

    it('gives up with a plain error when the holder works longer than it waits', async () => {
      const { database } = await freshDatabase(dialect);
      const held = await acquireStartupLease(database, 'demo');
      await expect(acquireStartupLease(database, 'demo', { waitMs: 300 })).rejects.toThrow(
        /Another instance has held the start-up lease "demo" on this database/,
      );
      await held.release();
    });
  });
}
