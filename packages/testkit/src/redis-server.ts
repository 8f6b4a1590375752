/**
 * A real Redis for the tests (decision 0057): Debian's `redis-server` (`/usr/bin/redis-server`;
 * CI installs it) on a free port of this machine, nothing saved to disk. A test can stop it and
 * start it again on the same port, as a Redis that goes away and comes back; it is stopped after
 * the file's tests.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll } from 'vitest';

const REDIS_SERVER = '/usr/bin/redis-server';

export interface TestRedis {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** Kills the server (SIGKILL: gone at once, as a crash). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

const running = new Set<ChildProcess>();
afterAll(async () => {
  for (const child of running) await kill(child);
});

/**
 * Starts a Redis; stopped after the file's tests.
 *
 * @example const redis = await startRedis(); const counters = await openRedisCounters(redis.url);
 */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = await launch(port);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    stop: async () => {
      if (child !== undefined) await kill(child);
      child = undefined;
    },
  };
}

function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve(child);
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
  });
}

function kill(child: ChildProcess): Promise<void> {
  running.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}
