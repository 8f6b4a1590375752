/**
 * An instance killed is gone at once (decision 0059, `schema/instances.ts`): a `ninefold start` on
 * a PostgreSQL database of the real server holds an advisory lock for as long as it runs, so when
 * it is killed with SIGKILL — no drain, its row left behind and fresh — the server ends its session
 * and another instance counts it as present no longer within two seconds, not after the rows'
 * 20-second staleness. A restart after a crash may then migrate by itself.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, startInstances } from '@ninefold/testkit';
import { INSTANCE_STALE_MS, TABLES, openDatabase, registerInstance } from '@ninefold/server';

process.env['TEST_DATABASE_URL'] ??= 'postgres://postgres@127.0.0.1:5432/test';

const SPEC = `
product: { name: Notes }
entities:
  Note:
    fields:
      title: { type: string, required: true }
roles:
  writer: { Note: { read: true, create: true } }
`;

const folder = mkdtempSync(join(tmpdir(), 'ninefold-presence-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  rmSync(folder, { recursive: true, force: true });
});

describe('instance presence on PostgreSQL', () => {
  it('stops counting an instance killed with SIGKILL within two seconds', async () => {
    const database = await freshPostgresDatabase();
    cleanups.push(() => database.drop());
    const spec = join(folder, 'notes.yaml');
    writeFileSync(spec, SPEC);
    const service = await startInstances({ spec, count: 1, store: database });
    cleanups.push(() => service.stop());
    const handle = await openDatabase(database.databaseUrl);
    cleanups.push(() => handle.close());
    const watcher = await registerInstance(handle);
    cleanups.push(() => watcher.release());
    expect(await watcher.others()).toBe(1);

    await service.instances[0]!.kill();
    const killedAt = Date.now();
    while ((await watcher.others()) !== 0 && Date.now() - killedAt < 5000)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await watcher.others()).toBe(0);
    expect(Date.now() - killedAt).toBeLessThan(2000);
    // its row is still there and fresh: only the lock tells that it is gone
    const rows = await handle.db.selectFrom(TABLES.instances).select(['id', 'seen_at']).execute();
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => Date.parse(String(row['seen_at'])) > Date.now() - INSTANCE_STALE_MS)).toBe(
      true,
    );
  });
});
