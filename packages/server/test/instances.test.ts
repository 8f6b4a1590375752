/**
 * The instances serving a database (`schema/instances.ts`, decision 0059): each sees the others
 * while they renew their rows, not once they leave, and not an instance that stopped renewing
 * (killed) once its row is stale — on the PostgreSQL server, once its advisory lock's session ends,
 * whatever its row says. On every dialect, through connections of their own where the dialect
 * allows it.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase, opensTwice, reopen } from '@ninefold/testkit';
import { sql } from 'kysely';
import { INSTANCE_LOCK_SPACE, INSTANCE_STALE_MS, TABLES, registerInstance } from '../src/index.js';

/** On the PostgreSQL server, presence is a lock each instance holds; elsewhere, rows renewed lately. */
function locked(dialect: string): boolean {
  return dialect === 'postgres' && (process.env['TEST_DATABASE_URL'] ?? '') !== '';
}

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

      // an instance whose last renewal is older than the stale time: killed, or cut off — except
      // on the server, where its lock says that it is alive
      const killed = await registerInstance(other, { now: () => Date.now() - INSTANCE_STALE_MS - 1000 });
      expect(await a.others()).toBe(locked(dialect) ? 1 : 0);
      // and one renewed just now counts, whatever its age
      const old = await registerInstance(other, { now: () => Date.now() - INSTANCE_STALE_MS + 5000 });
      expect(await a.others()).toBe(locked(dialect) ? 2 : 1);
      await old.release();

      await killed.release();
      await a.release();
    });

    if (locked(dialect))
      it('stops counting an instance the moment its session ends, its row still fresh', async () => {
        const { database, target } = await freshDatabase(dialect);
        const other = await reopen(target);
        const a = await registerInstance(database);
        const b = await registerInstance(other);
        expect(await a.others()).toBe(1);
        // b's process gone without a word: the server ends its sessions, its lock goes with them
        const [row] = await database.db
          .selectFrom(TABLES.instances)
          .select('lock_key')
          .where('id', '=', b.id)
          .execute();
        await sql`select pg_terminate_backend(pid) from pg_locks
          where locktype = 'advisory' and classid = ${INSTANCE_LOCK_SPACE}::int::oid
            and objid = ${Number(row!['lock_key'])}::int::oid`.execute(database.db);
        expect(await a.others()).toBe(0);
        // a new instance's lock is its own: it counts
        const c = await registerInstance(other);
        expect(await a.others()).toBe(1);
        await Promise.all([c.release(), b.release(), a.release()]);
      });
  });
}
