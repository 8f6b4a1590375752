/**
 * `ninefold backup` and `ninefold restore` by round trip (decision 0052): a product's database with
 * records holding files, on disk and on S3 (s3rver), is backed up while its database is open, and
 * restored into a fresh place, where the same records and the same bytes are read. A damaged
 * archive (gzip broken, an entry changed, an entry added) is refused with a clear message and
 * nothing written; a data folder or S3 prefix that holds something is refused without --force. On
 * PostgreSQL the archive holds the files and says the database is pg_dump's.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { compile } from '@ninefold/language';
import { type Model } from '@ninefold/model';
import {
  type Database,
  type DatabaseTarget,
  type FileStore,
  TABLES,
  addUser,
  buildApp,
  migrate,
  openDatabase,
  openFileStore,
  tableName,
} from '@ninefold/server';
import { CSRF, PASSWORD, type TestS3Server, freshTarget, login, startS3Server } from '@ninefold/testkit';
import { main } from '../src/main.js';
import { readArchive, writeArchive } from '../src/backup/archive.js';
import { makeBackup } from '../src/backup/make-backup.js';
import { MANIFEST_ENTRY, type Manifest } from '../src/backup/manifest.js';

const SPEC = `product: { name: Receipts }
entities:
  Claim:
    fields:
      title: string
      receipt: { type: file }
roles:
  clerk:
    Claim: { read: true, create: true, update: true }
`;

const root = mkdtempSync(join(tmpdir(), 'ninefold-backup-test-'));
const specPath = join(root, 'receipts.yaml');
writeFileSync(specPath, SPEC);
const model = (() => {
  const compiled = compile(SPEC, { file: specPath });
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.diagnostics));
  return compiled.model;
})();

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});

const fresh = (name: string) => join(mkdtempSync(join(root, `${name}-`)), 'data');

/** Runs the command line with buffers and an environment of its own. */
async function run(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    cwd: root,
    env,
  });
  return { code, stdout, stderr };
}

/** The database of a data folder, as `ninefold start` opens it. */
async function openSqlite(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  return openDatabase({ sqlite: join(dataDir, 'ninefold.sqlite') });
}

async function bytesOf(files: FileStore, key: string): Promise<Buffer | null> {
  const body = await files.get(key);
  if (body === null) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Three claims made through the API, two holding a file (its row, its bytes, the field's value). */
async function product(database: Database, files: FileStore, model: Model) {
  await migrate(database, model);
  await addUser(database, model, {
    email: 'clerk@example.com',
    name: 'Clerk',
    roles: ['clerk'],
    password: PASSWORD,
  });
  const app = buildApp({ model, database, files });
  const { cookie } = await login(app, 'clerk@example.com');
  const claims: Record<string, unknown>[] = [];
  for (const title of ['Taxi', 'Hotel', 'Lunch']) {
    const created = await app.inject({
      method: 'POST',
      url: '/api/claims',
      headers: { ...CSRF, cookie: cookie! },
      payload: { title },
    });
    expect(created.statusCode, created.body).toBe(201);
    claims.push(created.json());
  }
  await app.close();
  const held: Record<string, Buffer> = {};
  for (const [index, claim] of claims.slice(0, 2).entries()) {
    const id = `f_receipt_${index}`;
    const bytes = Buffer.from(`%PDF-1.7 receipt ${index} `.repeat(2000 * (index + 1)));
    held[id] = bytes;
    await files.put(id, Readable.from([bytes]));
    await files.put(`${id}.w64.webp`, Readable.from([Buffer.from('a variant, made again on demand')]));
    const info = { id, name: `receipt ${index}.pdf`, size: bytes.length, type: 'application/pdf' };
    await database.db
      .insertInto(TABLES.files)
      .values({
        id,
        name: info.name,
        size: info.size,
        type: info.type,
        uploaded_by: 'someone',
        uploaded_at: '2026-03-01T09:00:00.000Z',
        entity: 'Claim',
        record_id: String(claim['id']),
        field: 'receipt',
        attached_at: '2026-03-01T09:01:00.000Z',
      })
      .execute();
    await sql`update ${sql.table(tableName('claims'))} set receipt = ${JSON.stringify(info)} where id = ${claim['id']}`.execute(
      database.db,
    );
  }
  return { held };
}

/** What a database holds that a restore must give back: the claims and the files' rows. */
async function contents(database: Database) {
  return {
    claims: await database.db.selectFrom(tableName('claims')).selectAll().orderBy('id').execute(),
    files: await database.db.selectFrom(TABLES.files).selectAll().orderBy('id').execute(),
  };
}

/** The claims as the API reads them, through a server over the restored data folder. */
async function readThroughApi(database: Database, files: FileStore) {
  const app = buildApp({ model, database, files });
  const { cookie } = await login(app, 'clerk@example.com');
  const list = await app.inject({ method: 'GET', url: '/api/claims', headers: { cookie: cookie! } });
  await app.close();
  expect(list.statusCode, list.body).toBe(200);
  return (list.json<{ data: Record<string, unknown>[] }>().data ?? []).map((c) => c['title']).sort();
}

describe.each(['disk', 's3'] as const)('backup and restore on %s', (kind) => {
  const envOf = (prefix: string): Record<string, string> => (kind === 'disk' ? {} : s3.env(prefix));

  it('restores the same records and the same bytes into a fresh place, while the source stays open', async () => {
    const source = fresh('source');
    const sourceEnv = envOf(`source-${Date.now()}`);
    const files = openFileStore(sourceEnv, source);
    const database = await openSqlite(source);
    const { held } = await product(database, files, model);
    const before = await contents(database);

    // the source database stays open, as a running server's would
    const out = join(root, `backup-${kind}.tar.gz`);
    const backedUp = await run(['backup', specPath, '--data', source, '--out', out], sourceEnv);
    expect(backedUp.stderr).toBe('');
    expect(backedUp.code).toBe(0);
    expect(backedUp.stdout).toContain(`Backed up the database and 2 files from ${files.description}`);
    await database.close();

    const target = fresh('target');
    const targetEnv = envOf(`target-${Date.now()}`);
    const restored = await run(['restore', out, '--data', target], targetEnv);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/Restored Receipts as backed up at .*: the database to .* and 2 files/);

    const reopened = await openDatabase({ sqlite: join(target, 'ninefold.sqlite') });
    try {
      expect(await contents(reopened)).toEqual(before);
      const targetFiles = openFileStore(targetEnv, target);
      expect(await readThroughApi(reopened, targetFiles)).toEqual(['Hotel', 'Lunch', 'Taxi']);
      for (const [id, bytes] of Object.entries(held)) expect(await bytesOf(targetFiles, id)).toEqual(bytes);
      // variants are made again on demand: not archived
      expect(await bytesOf(targetFiles, 'f_receipt_0.w64.webp')).toBeNull();
    } finally {
      await reopened.close();
    }

    // a second restore into the same place is refused, unless forced
    const again = await run(['restore', out, '--data', target], targetEnv);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already holds data; restore into an empty one, or give --force');
    const forced = await run(['restore', out, '--data', target, '--force'], targetEnv);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
  });
});

describe('backup while the server writes', () => {
  it('takes the snapshot between writes: every restored claim has its history, and nothing more', async () => {
    const source = fresh('busy');
    const files = openFileStore({}, source);
    const database = await openSqlite(source);
    await product(database, files, model);
    // what the history holds besides the claims' creates (the user's), before the writes begin
    const historyOf = async (db: Database) =>
      (await db.db.selectFrom(TABLES.history).select('id').execute()).length;
    const besides = (await historyOf(database)) - (await contents(database)).claims.length;
    const app = buildApp({ model, database, files });
    const { cookie } = await login(app, 'clerk@example.com');
    let backingUp = true;
    let written = 0;
    const writer = (async () => {
      while (backingUp) {
        const created = await app.inject({
          method: 'POST',
          url: '/api/claims',
          headers: { ...CSRF, cookie: cookie! },
          payload: { title: `Claim ${written}` },
        });
        expect(created.statusCode, created.body).toBe(201);
        written += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const out = join(mkdtempSync(join(root, 'busy-out-')), 'backup.tar.gz');
    const backedUp = await run(['backup', specPath, '--data', source, '--out', out]);
    backingUp = false;
    await writer;
    await app.close();
    const total = await contents(database);
    await database.close();
    expect(backedUp.stderr).toBe('');
    expect(written).toBeGreaterThan(0);

    const target = fresh('busy-restored');
    expect((await run(['restore', out, '--data', target])).code).toBe(0);
    const restored = await openSqlite(target);
    try {
      const claims = (await contents(restored)).claims.length;
      expect(claims).toBeGreaterThanOrEqual(3);
      expect(claims).toBeLessThanOrEqual(total.claims.length);
      expect(await historyOf(restored)).toBe(claims + besides);
    } finally {
      await restored.close();
    }
  });
});

/** A backup of a small product on disk, for the archives to damage. */
async function smallBackup(): Promise<{ out: string; manifest: Manifest }> {
  const source = fresh('small');
  const files = openFileStore({}, source);
  const database = await openSqlite(source);
  await product(database, files, model);
  await database.close();
  const out = join(mkdtempSync(join(root, 'small-out-')), 'backup.tar.gz');
  const manifest = await makeBackup({
    productName: 'Receipts',
    specFile: specPath,
    database: { sqlite: join(source, 'ninefold.sqlite') },
    files,
    out,
  });
  return { out, manifest };
}

/** The archive's entries as bytes, in order (small archives only). */
async function entriesOf(archive: string): Promise<[string, Buffer][]> {
  const entries: [string, Buffer][] = [];
  await readArchive(archive, async (entry, body) => {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    entries.push([entry.path, Buffer.concat(chunks)]);
  });
  return entries;
}

/** An archive of these entries, the last one being the manifest as given. */
async function rewritten(entries: [string, Buffer][], name: string): Promise<string> {
  const out = join(mkdtempSync(join(root, `${name}-`)), 'backup.tar.gz');
  await writeArchive(out, async (add) => {
    let manifest = '';
    for (const [path, bytes] of entries)
      if (path === MANIFEST_ENTRY) manifest = bytes.toString('utf8');
      else await add(path, bytes.length, Readable.from([bytes]));
    return manifest;
  });
  return out;
}

describe('a damaged archive', () => {
  it('is refused, saying why, and nothing is written', async () => {
    const { out } = await smallBackup();
    const entries = await entriesOf(out);
    const whole = readFileSync(out);

    const flipped = join(mkdtempSync(join(root, 'flipped-')), 'backup.tar.gz');
    const broken = Buffer.from(whole);
    broken[Math.floor(broken.length / 2)]! ^= 0xff;
    writeFileSync(flipped, broken);

    const truncated = join(mkdtempSync(join(root, 'truncated-')), 'backup.tar.gz');
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length * 0.7)));

    // a file's bytes changed, of the same size: a valid archive that its manifest refutes
    const changed = await rewritten(
      entries.map(([path, bytes]) => [
        path,
        path === 'files/f_receipt_1' ? Buffer.from(bytes).fill(0x41, 0, 4) : bytes,
      ]),
      'changed',
    );
    const added = await rewritten(
      [...entries.slice(0, -1), ['files/f_smuggled', Buffer.from('x')], entries.at(-1)!],
      'added',
    );
    const escaping = await rewritten(
      [...entries.slice(0, -1), ['files/../../escaped', Buffer.from('x')], entries.at(-1)!],
      'escaping',
    );
    const noManifest = await rewritten(
      entries
        .filter(([path]) => path !== MANIFEST_ENTRY)
        .concat([[MANIFEST_ENTRY, Buffer.from('{"format":"zip"}')]]),
      'foreign',
    );

    const cases: [string, string, RegExp][] = [
      ['a byte flipped', flipped, /damaged|does not match/],
      ['cut short', truncated, /damaged|missing|no manifest/],
      ['a file changed', changed, /files\/f_receipt_1 does not match its checksum/],
      ['a file added', added, /holds files\/f_smuggled, which its manifest does not name/],
      ['a path escaping', escaping, /which no backup writes/],
      ['not a backup', noManifest, /not a Ninefold backup/],
      ['no such file', join(root, 'nowhere.tar.gz'), /there is no such file/],
    ];
    for (const [what, archive, reason] of cases) {
      const target = fresh('refused');
      const refused = await run(['restore', archive, '--data', target]);
      expect(refused.code, what).toBe(1);
      expect(refused.stderr, what).toMatch(reason);
      expect(refused.stderr, what).toContain('Nothing was written.');
      expect(refused.stderr, what).not.toMatch(/\n\s+at /);
      expect(existsSync(target) ? readdirSync(target) : [], what).toEqual([]);
    }
  });
});

describe('backup on PostgreSQL', () => {
  it('archives the files the database names, without the database, and restores them', async () => {
    const target: DatabaseTarget = await freshTarget('postgres', { persistent: true });
    const source = fresh('pg-files');
    const files = openFileStore({}, source);
    const database = await openDatabase(target);
    const { held } = await product(database, files, model);
    await database.close();
    const out = join(mkdtempSync(join(root, 'pg-out-')), 'backup.tar.gz');
    const manifest = await makeBackup({
      productName: 'Receipts',
      specFile: specPath,
      database: { postgres: target },
      files,
      out,
    });
    expect(manifest.database).toBe('postgresql');
    expect(manifest.entries.map((e) => e.path)).toEqual(['files/f_receipt_0', 'files/f_receipt_1']);

    const restoredTo = fresh('pg-restored');
    const restored = await run(['restore', out, '--data', restoredTo], {
      DATABASE_URL: 'postgres://127.0.0.1:9/unused',
    });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('restore it with pg_restore');
    expect(existsSync(join(restoredTo, 'ninefold.sqlite'))).toBe(false);
    const restoredFiles = openFileStore({}, restoredTo);
    for (const [id, bytes] of Object.entries(held)) expect(await bytesOf(restoredFiles, id)).toEqual(bytes);
  });
});

describe('the commands', () => {
  it('refuse what they cannot do, saying why', async () => {
    const { out } = await smallBackup();
    expect((await run(['backup', specPath])).stderr).toContain(
      'Give one spec and the archive to write (--out)',
    );
    const exists = await run(['backup', specPath, '--data', fresh('x'), '--out', out]);
    expect(exists.stderr).toContain('exists already');
    const empty = await run([
      'backup',
      specPath,
      '--data',
      fresh('empty'),
      '--out',
      join(root, 'new.tar.gz'),
    ]);
    expect(empty.stderr).toContain('there is no database at');
    const sqliteIntoPostgres = await run(['restore', out, '--data', fresh('pg')], {
      DATABASE_URL: 'postgres://127.0.0.1:9/unused',
    });
    expect(sqliteIntoPostgres.stderr).toContain(
      'the archive holds a SQLite database, and DATABASE_URL names PostgreSQL',
    );
    const badStorage = await run(['restore', out, '--data', fresh('s3')], { STORAGE_URL: 's3://Bad_Bucket' });
    expect(badStorage.stderr).toContain('Could not restore: STORAGE_URL names no valid bucket');
  });
});
