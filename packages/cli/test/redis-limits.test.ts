/**
 * Where `ninefold start` counts the limits (decision 0057): said in the start log; in the Redis of
 * REDIS_URL when set, named without its password; a REDIS_URL that cannot be used stops the start
 * with one line that never repeats the password.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startRedis } from '@ninefold/testkit';
import { main } from '../src/main.js';
import { type RunningServer } from '../src/start-server.js';

const dir = mkdtempSync(join(tmpdir(), 'ninefold-cli-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const spec = join(dir, 'notes.yaml');
writeFileSync(spec, 'entities: { Note: { fields: { title: string } } }\n');

async function run(env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  let server: RunningServer | undefined;
  const code = await main(['start', spec, '--port', '0', '--data', join(dir, 'data'), '--api-only'], {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    cwd: dir,
    env,
    onStarted: (started) => (server = started as RunningServer),
  });
  return { code, stdout, stderr, server };
}

describe('ninefold start: where the limits count', () => {
  it('counts in memory on SQLite, and in the Redis of REDIS_URL when set, and says so', async () => {
    const plain = await run({});
    try {
      expect(plain.stdout).toContain('Rate limits count in the memory of this process.');
    } finally {
      await plain.server?.close();
    }
    const redis = await startRedis();
    const counted = await run({ REDIS_URL: `${redis.url}/0` });
    try {
      expect(counted.stderr).toBe('');
      expect(counted.stdout).toContain(`Rate limits count in Redis at ${redis.url}/0.`);
    } finally {
      await counted.server?.close();
    }
  });

  it('stops at a REDIS_URL it cannot use with one line, never its password', async () => {
    const unreachable = await run({ REDIS_URL: 'redis://:s3cret-pass@127.0.0.1:1/0' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^Could not start: REDIS_URL names redis:\/\/127\.0\.0\.1:1\/0, which cannot be used: [^\n]+\n$/,
    );
    expect(unreachable.stderr + unreachable.stdout).not.toContain('s3cret');
    const wrong = await run({ REDIS_URL: 'http://:s3cret-pass@cache:6379' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(
      'Could not start: REDIS_URL has the scheme "http": expected redis://[user:password@]host[:port][/database] or rediss://… for TLS.\n',
    );
  });
});
