/**
 * An S3-compatible server for the tests (`s3rver`), on a free port of this machine and a temporary
 * directory, with one bucket: the file stores and the backups are tested against it as against S3.
 * It runs in a process of its own, as a real service would, with OpenSSL's legacy provider: s3rver
 * makes its listing's continuation tokens with DES, which OpenSSL 3 otherwise refuses (every
 * truncated listing would be a 500). It stops when the test process goes away (its stdin closes).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

/** s3rver's own credentials: any signature with them is accepted. */
const ACCESS_KEY = 'S3RVER';

/** The server's process: starts s3rver, says its port, and stops when stdin closes. */
const SERVER = `
const S3rver = require('s3rver');
const [directory, bucket] = process.argv.slice(1);
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
server.run().then(({ port }) => console.log(JSON.stringify({ port })));
process.stdin.resume();
process.stdin.on('end', () => server.close().then(() => process.exit(0)));
`;

export interface TestS3Server {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  readonly bucket: string;
  /** The environment of a process that stores its files there (`STORAGE_URL` and the credentials). */
  env(prefix?: string): Record<string, string>;
  /** Where s3rver keeps the objects on this machine. */
  readonly directory: string;
  close(): Promise<void>;
}

/**
 * Starts s3rver with a bucket; it is stopped and its directory removed after the file's tests.
 *
 * @example const s3 = await startS3Server(); const files = openFileStore(s3.env(), dataDir);
 */
export async function startS3Server(bucket = 'ninefold-test'): Promise<TestS3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'ninefold-s3-'));
  // from this package's folder, where `require('s3rver')` finds the workspace's
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', SERVER, directory, bucket], {
    cwd,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await portOf(child);
  const endpoint = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      await exited;
      rmSync(directory, { recursive: true, force: true });
    })());
  afterAll(close);
  return {
    endpoint,
    bucket,
    directory,
    env: (prefix = '') => ({
      STORAGE_URL: `s3://${bucket}${prefix === '' ? '' : `/${prefix}`}?endpoint=${encodeURIComponent(endpoint)}&forcePathStyle=true`,
      AWS_ACCESS_KEY_ID: ACCESS_KEY,
      AWS_SECRET_ACCESS_KEY: ACCESS_KEY,
    }),
    close,
  };
}

/** The port the server's first line says, or the reason it never said one. */
async function portOf(child: ChildProcess): Promise<number> {
  const lines = createInterface({ input: child.stdout! });
  return new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`s3rver stopped before listening (exit ${code})`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
}
