/**
 * The job runner in the command line: `ninefold start` runs the product's jobs in its own process
 * and stops them when it closes; `ninefold worker` refuses SQLite, where start runs them. (The
 * worker on PostgreSQL, as its own process, is the fault suite's: `faults/jobs.faults.ts`.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TABLES, enqueueJob } from '@ninefold/server';
import { main } from '../src/main.js';
import { startServer } from '../src/start-server.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ninefold-cli-jobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ninefold start: jobs', () => {
  it('runs the jobs in the server process, and leaves a kind it does not know to another', async () => {
    const ran: string[] = [];
    const server = await startServer({
      specPath: join(repo, 'examples/expense-claims.md'),
      dataDir: join(dir, 'start'),
      port: 0,
      handleSignals: false,
      logger: false,
      print: () => undefined,
      databaseUrl: '',
      // the example's webhook reads these; start refuses without them (decision 0030)
      env: {
        ACCOUNTING_WEBHOOK_URL: 'http://127.0.0.1:9/accounting',
        ACCOUNTING_WEBHOOK_SECRET: 'whsec_dGVzdA==',
      },
      jobHandlers: { 'embedder.note': async (job) => void ran.push(job.id) },
    });
    const stateOf = async (id: string) =>
      (
        await server.database.db
          .selectFrom(TABLES.jobs)
          .select('state')
          .where('id', '=', id)
          .executeTakeFirst()
      )?.state;
    try {
      const [known, unknown] = await server.database.db
        .transaction()
        .execute(async (trx) => [
          await enqueueJob(trx, { kind: 'embedder.note' }),
          await enqueueJob(trx, { kind: 'from-a-newer-version' }),
        ]);
      await expect.poll(() => stateOf(known!.id), { timeout: 5000 }).toBe('done');
      expect(ran).toEqual([known!.id]);
      expect(await stateOf(unknown!.id)).toBe('pending');
    } finally {
      await server.close();
    }
    expect(server.jobs.busy).toBe(0);
  });
});

describe('ninefold worker', () => {
  it('refuses SQLite with a plain message: there, start runs the jobs', async () => {
    let stderr = '';
    const code = await main(['worker', 'examples/expense-claims.md'], {
      stdout: { write: () => true },
      stderr: { write: (t: string) => (stderr += t) },
      cwd: repo,
      env: {},
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/set DATABASE_URL to a postgres:\/\/ URL.*`ninefold start` runs the jobs itself/);
  });

  it('asks for one spec', async () => {
    let stderr = '';
    const code = await main(['worker'], {
      stdout: { write: () => true },
      stderr: { write: (t: string) => (stderr += t) },
      cwd: repo,
      env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' },
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/Give exactly one spec/);
  });
});
