/**
 * The command line of a rolling deploy (decision 0059). `ninefold migrate` prints the plan and
 * changes nothing (exit 1 while there is one, so that a script written when it applied stops);
 * `--apply` is the pre-deploy step. On the PostgreSQL server (when TEST_DATABASE_URL is set), with
 * another instance serving from the database, `ninefold start` and `ninefold worker` (and `ninefold
 * users`) do not migrate: they serve a database that can serve their spec, stop with one line
 * naming `ninefold migrate --apply` on one that cannot, and migrate with `--migrate`, or once alone.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshTarget } from '@ninefold/testkit';
import { type InstancePresence, openDatabase, registerInstance } from '@ninefold/server';
import { main } from '../src/main.js';

const dir = mkdtempSync(join(tmpdir(), 'ninefold-cli-deploys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? '';

/** Versions of one spec: each adds a field to the last; `lossy` drops v1's `body`. */
const NOTE = 'entities:\n  Note:\n    fields:\n      title: { type: string }\n';
const SPECS = {
  v1: `${NOTE}      body: { type: text }\n`,
  v2: `${NOTE}      body: { type: text }\n      tag: { type: string }\n`,
  v3: `${NOTE}      body: { type: text }\n      tag: { type: string }\n      size: { type: integer }\n`,
  v4: `${NOTE}      body: { type: text }\n      tag: { type: string }\n      size: { type: integer }\n      due: { type: date }\n`,
  lossy: NOTE,
};
const spec = (name: keyof typeof SPECS) => {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, SPECS[name]);
  return path;
};

type Started = { url: string; close(): Promise<void> };

/** Runs the command line against buffers; a started server is closed before it returns. */
async function run(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  let started: Started | undefined;
  let ready: number | undefined;
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    cwd: dir,
    env,
    onStarted: (server) => (started = server),
  });
  if (started !== undefined && args[0] === 'start') ready = (await fetch(`${started.url}/ready`)).status;
  await started?.close();
  return { code, stdout, stderr, started: started !== undefined, ready };
}

describe('ninefold migrate', () => {
  it('prints the plan and changes nothing without --apply, exiting 1 while there is one', async () => {
    const data = ['--data', join(dir, 'plan')];
    const planned = await run(['migrate', spec('v1'), ...data]);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain('create table notes for Note');
    expect(planned.stderr).toBe(
      `Nothing was applied: run \`ninefold migrate ${spec('v1')} --apply\` to apply the plan.\n`,
    );
    // nothing was applied: the same plan again
    expect((await run(['migrate', spec('v1'), ...data])).stdout).toBe(planned.stdout);

    const applied = await run(['migrate', spec('v1'), ...data, '--apply']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Applied migration 1');
    const upToDate = await run(['migrate', spec('v1'), ...data]);
    expect([upToDate.code, upToDate.stdout]).toEqual([0, 'The database already follows the spec.\n']);

    // a lossy plan: marked, and how to apply it named with both flags; still nothing applied
    const lossy = await run(['migrate', spec('lossy'), ...data, '--accept-data-loss']);
    expect(lossy.code).toBe(1);
    expect(lossy.stdout).toContain('! drop column notes.body');
    expect(lossy.stderr).toContain('--apply --accept-data-loss');
    expect((await run(['migrate', spec('lossy'), ...data, '--apply'])).code).toBe(1);
    const accepted = await run(['migrate', spec('lossy'), ...data, '--apply', '--accept-data-loss']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain('Applied migration 2');
  });

  it('explains --apply and --migrate in its help', async () => {
    expect((await run(['help', 'migrate'])).stdout).toContain('--apply');
    expect((await run(['help', 'start'])).stdout).toContain('--migrate');
    expect((await run(['help', 'worker'])).stdout).toContain('--migrate');
  });
});

describe('ninefold start on SQLite', () => {
  it('migrates by itself, as the quick start does', async () => {
    const started = await run([
      'start',
      spec('v1'),
      '--port',
      '0',
      '--api-only',
      '--quiet',
      '--data',
      join(dir, 'one'),
    ]);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toContain('Migrated the database (migration 1)');
    expect(started.ready).toBe(200);
  });
});

if (TEST_DATABASE_URL !== '') {
  describe('ninefold start and worker beside another instance, on the PostgreSQL server', () => {
    it('serve a database that can serve their spec, refuse one that cannot, and migrate when told or alone', async () => {
      const env = { DATABASE_URL: String(await freshTarget('postgres')) };
      const start = (name: keyof typeof SPECS, ...flags: string[]) =>
        run(['start', spec(name), '--port', '0', '--api-only', '--quiet', ...flags], env);
      expect((await run(['migrate', spec('v1'), '--apply'], env)).code).toBe(0);

      // another instance serving from the database, as a process elsewhere does
      const elsewhere = await openDatabase(env.DATABASE_URL);
      const other: InstancePresence = await registerInstance(elsewhere);
      try {
        const refused = await start('v2');
        expect(refused.code).toBe(1);
        expect(refused.started).toBe(false);
        expect(refused.stderr.split('\n')).toHaveLength(2); // one line
        expect(refused.stderr).toMatch(
          /^Could not start: The PostgreSQL database "[^"]+" is not migrated to this spec \(table notes has no column tag\), and 1 other instance serves from it: run `ninefold migrate <spec> --apply` first/,
        );
        const worker = await run(['worker', spec('v2')], env);
        expect(worker.code).toBe(1);
        expect(worker.stderr).toContain('ninefold migrate <spec> --apply');
        // nor does a command that is no instance: it leaves the migration to the pre-deploy step too
        const users = await run(['users', 'list', '--spec', spec('v2')], env);
        expect(users.code).toBe(1);
        expect(users.stderr).toContain('ninefold migrate <spec> --apply');
        expect((await run(['users', 'list', '--spec', spec('v1')], env)).code).toBe(0);

        // the pre-deploy step; then the new spec starts, and so does the old one, beside it
        expect((await run(['migrate', spec('v2'), '--apply'], env)).code).toBe(0);
        const next = await start('v2');
        expect([next.code, next.stderr, next.ready]).toEqual([0, '', 200]);
        expect(next.stdout).not.toContain('Migrated');
        const old = await start('v1');
        expect([old.code, old.stderr, old.ready]).toEqual([0, '', 200]);
        expect(old.stdout).toContain(
          '1 other instance serves from this database: not migrating it. It can serve this spec as it is',
        );
        expect(old.stdout).toContain('! drop column notes.tag');

        // told to, it migrates beside the other instance
        const told = await start('v3', '--migrate');
        expect([told.code, told.ready]).toEqual([0, 200]);
        expect(told.stdout).toContain('Migrated the database (migration 3)');
      } finally {
        await other.release();
      }
      // alone, it migrates by itself
      try {
        const alone = await start('v4');
        expect([alone.code, alone.stderr, alone.ready]).toEqual([0, '', 200]);
        expect(alone.stdout).toContain('Migrated the database (migration 4)');
      } finally {
        await elsewhere.close();
      }
    });
  });
}
