/**
 * The test kit's `startInstances`: N processes of the built `ninefold start` on one database, each
 * answering `/ready` on a port of its own. A note created through one instance is read through every
 * other (one database, no state of its own), SIGTERM stops each with exit code 0, and a start that
 * cannot listen fails with what the process printed. On one SQLite folder always; on a database of
 * its own on the real PostgreSQL server when TEST_DATABASE_URL is set (PGlite is in-process: no
 * second process can open it).
 */
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@ninefold/model';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  type InstanceStore,
  type ProductInstance,
  type ProductInstances,
  freshPostgresDatabase,
  startInstances,
} from '@ninefold/testkit';

const dir = mkdtempSync(join(tmpdir(), 'ninefold-instances-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const spec = join(dir, 'notes.yaml');
writeFileSync(
  spec,
  `product: { name: Notes }
entities: { Note: { fields: { title: { type: string, required: true } } } }
roles: { writer: { Note: { read: all, create: true } } }
`,
);
const CSRF = { [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' };
const PASSWORD = 'correct horse battery staple';

/** Signs in through one instance: the session cookie, good on every instance. */
async function signIn(instance: ProductInstance): Promise<string> {
  const response = await fetch(`${instance.url}/api/session`, {
    method: 'POST',
    headers: CSRF,
    body: JSON.stringify({ email: 'writer@example.com', password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return response.headers.getSetCookie()[0]!.split(';')[0]!;
}

async function oneServiceOn(store: InstanceStore, count: number) {
  let started: ProductInstances | undefined;
  try {
    started = await startInstances({ spec, count, store });
    const { instances, ninefold } = started;
    expect(instances).toHaveLength(count);
    expect(new Set(instances.map((instance) => instance.url)).size).toBe(count);
    await ninefold(
      ['users', 'add', '--spec', spec, '--email', 'writer@example.com', '--name', 'W'].concat([
        '--roles',
        'writer',
        '--password',
        PASSWORD,
      ]),
    );
    const cookie = await signIn(instances[0]!);
    const created = await fetch(`${instances[0]!.url}/api/notes`, {
      method: 'POST',
      headers: { ...CSRF, cookie },
      body: JSON.stringify({ title: 'seen everywhere' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    for (const instance of instances) {
      const read = await fetch(`${instance.url}/api/notes/${id}`, { headers: { cookie } });
      expect(read.status, instance.url).toBe(200);
      expect(((await read.json()) as { title: string }).title).toBe('seen everywhere');
    }
    const codes = await Promise.all(instances.map((instance) => instance.stop()));
    expect(codes).toEqual(instances.map(() => 0));
  } finally {
    await started?.stop();
  }
}

for (const dialect of DIALECTS) {
  const twoProcesses = dialect === 'sqlite' || (process.env['TEST_DATABASE_URL'] ?? '') !== '';
  if (!twoProcesses) continue;
  describe(`${dialect}: instances of the real command line on one database`, () => {
    it('they serve one set of records, and each stops with exit code 0', async () => {
      if (dialect === 'sqlite') return oneServiceOn({ dataDir: join(dir, 'data') }, 2);
      const database = await freshPostgresDatabase();
      try {
        await oneServiceOn(database, 3);
      } finally {
        await database.drop();
      }
    }, 120_000);
  });
}

describe('an instance that cannot start', () => {
  it('fails with what the process printed', async () => {
    const error = await startInstances({
      spec: join(dir, 'missing.yaml'),
      count: 2,
      store: { dataDir: join(dir, 'other') },
    }).then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(error?.message).toMatch(/exited \(1\) before it listened\. It printed:\n.*missing\.yaml/);
  });
});
