/**
 * Where `ninefold start` and `ninefold worker` keep files (decision 0052): the data folder's
 * `files/` by default, the S3 of STORAGE_URL when set, said in the start log without credentials;
 * a STORAGE_URL that cannot be used stops them with one clear line, before anything is opened. A
 * start sweeps the store at once, then a day on (decision 0071).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestS3Server, startS3Server } from '@ninefold/testkit';
import { FILE_REMOVE_JOB, FILE_SWEEP_JOB, ORPHAN_AGE_MS, SWEEP_EVERY_MS, TABLES } from '@ninefold/server';
import { main } from '../src/main.js';
import { type RunningServer } from '../src/start-server.js';

const dir = mkdtempSync(join(tmpdir(), 'ninefold-cli-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const spec = join(dir, 'notes.yaml');
writeFileSync(spec, 'entities: { Note: { fields: { title: string } } }\n');

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});

async function run(args: string[], env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  let server: RunningServer | undefined;
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    cwd: dir,
    env,
    onStarted: (started) => (server = started as RunningServer),
  });
  return { code, stdout, stderr, server };
}

const startArgs = (data: string) => ['start', spec, '--port', '0', '--data', data, '--api-only', '--quiet'];

describe('ninefold start: files', () => {
  it('keeps files in the data folder by default, and says so', async () => {
    const data = join(dir, 'disk');
    const { code, stdout, stderr, server } = await run(startArgs(data), {});
    try {
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain(`Files are stored in disk:${join(data, 'files')}.`);
      await server!.files.put('f_started', Readable.from([Buffer.from('x')]));
      expect(existsSync(join(data, 'files', 'f_', 'f_started'))).toBe(true);
    } finally {
      await server?.close();
    }
  });

  it('sweeps the store at start: an old temporary file goes, bytes no row names get their removal', async () => {
    const data = join(dir, 'swept');
    const orphan = '019ab3c2-7f10-7a3e-9c4d-2b8f0e6a1d55';
    const old = new Date(Date.now() - 2 * ORPHAN_AGE_MS);
    // what a process killed between the bytes and the row, and one killed mid-upload, leave
    mkdirSync(join(data, 'files', '01'), { recursive: true });
    mkdirSync(join(data, 'files', 'tmp'));
    for (const path of [join(data, 'files', '01', orphan), join(data, 'files', 'tmp', 'killed.part')]) {
      writeFileSync(path, 'bytes');
      utimesSync(path, old, old);
    }
    const started = Date.now();
    const { code, stderr, server } = await run(startArgs(data), {});
    try {
      expect([code, stderr]).toEqual([0, '']);
      const jobs = async (kind: string) =>
        server!.database.db.selectFrom(TABLES.jobs).selectAll().where('kind', '=', kind).execute();
      // the first sweep runs at once, and writes the next a day on
      await expect
        .poll(async () => (await jobs(FILE_SWEEP_JOB)).map((job) => job['state']).sort(), { timeout: 10_000 })
        .toEqual(['done', 'pending']);
      expect(existsSync(join(data, 'files', 'tmp', 'killed.part'))).toBe(false);
      const next = (await jobs(FILE_SWEEP_JOB)).find((job) => job['state'] === 'pending');
      expect(Number(next?.['run_at'])).toBeGreaterThanOrEqual(started + SWEEP_EVERY_MS);
      // the orphan's removal an hour on: its bytes are there until then
      const [removal] = await jobs(FILE_REMOVE_JOB);
      expect(JSON.parse(String(removal?.['payload']))).toEqual({ file: orphan });
      expect(Number(removal?.['run_at'])).toBeGreaterThanOrEqual(started + ORPHAN_AGE_MS);
      expect(existsSync(join(data, 'files', '01', orphan))).toBe(true);
    } finally {
      await server?.close();
    }
  });

  it('keeps files in the S3 of STORAGE_URL, named without its credentials', async () => {
    const env = s3.env('started');
    const { code, stdout, stderr, server } = await run(startArgs(join(dir, 's3')), env);
    try {
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain(`Files are stored in s3://${s3.bucket}/started at ${s3.endpoint}.`);
      expect(stdout).not.toContain(env['AWS_SECRET_ACCESS_KEY']);
      await server!.files.put('f_started', Readable.from([Buffer.from('in the bucket')]));
      expect(existsSync(join(dir, 's3', 'files'))).toBe(false);
      const keys: string[] = [];
      for await (const { key } of server!.files.keys()) keys.push(key);
      expect(keys).toEqual(['f_started']);
    } finally {
      await server?.close();
    }
  });

  it('does not start with a STORAGE_URL it cannot use, saying why in one line', async () => {
    const data = join(dir, 'refused');
    const { code, stdout, stderr } = await run(startArgs(data), {
      STORAGE_URL: 's3://KEY:very-secret@receipts',
    });
    expect(code).toBe(1);
    expect(stderr).toBe(
      'Could not start: STORAGE_URL must not hold credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead\n',
    );
    expect(stdout).not.toContain('very-secret');
    // refused before the database was opened
    expect(existsSync(data)).toBe(false);
  });
});

describe('ninefold worker: files', () => {
  it('does not start with a STORAGE_URL it cannot use, before opening the database', async () => {
    const { code, stderr } = await run(['worker', spec], {
      DATABASE_URL: 'postgres://127.0.0.1:9/unreachable',
      STORAGE_URL: 's3://receipts?endpoint=ftp://files.example.com',
    });
    expect(code).toBe(1);
    expect(stderr).toBe('Could not start: STORAGE_URL has an endpoint that is not http:// or https://\n');
  });
});
