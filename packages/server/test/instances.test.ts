/**
 * The instances serving a database (`schema/instances.ts`, decision 0059): each sees the others
 * while they renew their rows, not once they leave, and not an instance that stopped renewing
 * (killed) once its row is stale. On every dialect, through
 * connections of their own where the dialect allows it.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase, opensTwice, reopen } from '@ninefold/testkit';
import { INSTANCE_STALE_MS, registerInstance } from '../src/index.js';

for (const dialect of DIALECTS) {
  describe(`${dialect}: instances`, () => {
    it('sees the instances that renew their rows, not those that left or stopped renewing', async () => {
      const { database, target } = await freshDatabase(dialect);
      const other = opensTwice(dialect) ? await reopen(target) : database;
      const a = await registerInstance(database);
      expect(await a.others()).toBe(0);
      const b = await registerInstance(other);
      expect([await a.others(), await b.others()]).toEqual([1, 1]);
      await b.release();
      await b.release(); // idempotent
      expect(await a.others()).toBe(0);

      // an instance whose last renewal is older than the stale time: killed, or cut off
      const killed = await registerInstance(other, { now: () => Date.now() - INSTANCE_STALE_MS - 1000 });
      expect(await a.others()).toBe(0);
      // and one renewed just now counts, whatever its age
      const old = await registerInstance(other, { now: () => Date.now() - INSTANCE_STALE_MS + 5000 });
      expect(await a.others()).toBe(1);
      await old.release();

      await killed.release();
      await a.release();
    });
  });
}
