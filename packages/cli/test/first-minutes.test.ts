/**
 * A newcomer's first minutes with `ninefold start` (decision 0062): a misspelt spec path is named
 * with the nearest spec file; a port in use stops the start before the database is touched, naming
 * --port (PORT works, the flag wins); the log is readable on a terminal and JSON when piped; and
 * the demo accounts are the last lines start-up prints.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseLogFormat, prettyLogStream } from '../src/log-format.js';
import { palette } from '../src/io.js';
import { main } from '../src/main.js';
import { missingSpecMessage } from '../src/spec-path.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ninefold-first-minutes-'));

type Started = { url: string; close(): Promise<void> };

async function run(
  args: string[],
  options: { env?: Record<string, string>; onStarted?: (server: Started) => void } = {},
) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    cwd: repo,
    env: options.env ?? {},
    ...(options.onStarted === undefined ? {} : { onStarted: options.onStarted }),
  });
  return { code, stdout, stderr };
}

/** A port this test holds, as another program would. */
let held: Server;
let heldPort: number;
beforeAll(async () => {
  held = createServer();
  await new Promise<void>((done) => held.listen({ host: '127.0.0.1', port: 0 }, done));
  heldPort = (held.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((done) => held.close(done));
  rmSync(dir, { recursive: true, force: true });
});

describe('a misspelt spec path', () => {
  const suggestion = 'no file examples/expense-claim.md — did you mean examples/expense-claims.md?';

  it('start says so with the nearest spec, exit 1, and opens no database', async () => {
    const data = join(dir, 'misspelt');
    const { code, stdout, stderr } = await run(['start', 'examples/expense-claim.md', '--data', data]);
    expect(code).toBe(1);
    expect(stderr).toBe(`Could not start: ${suggestion}\n`);
    expect(stdout).toBe('');
    expect(existsSync(data)).toBe(false);
  });

  it('migrate and check say the same', async () => {
    const migrate = await run(['migrate', 'examples/expense-claim.md', '--data', join(dir, 'm')]);
    expect(migrate.code).toBe(1);
    expect(migrate.stderr).toBe(`Cannot read the spec: ${suggestion}\n`);
    const check = await run(['check', 'examples/expense-claim.md']);
    expect(check.code).toBe(2); // check's documented status for a file it cannot read
    expect(check.stdout).toContain(
      'cannot read examples/expense-claim.md: no such file — did you mean examples/expense-claims.md?',
    );
  });

  it('suggests nothing when no spec is near, and names a missing folder', () => {
    expect(missingSpecMessage(repo, 'examples/payroll.md')).toBe('no file examples/payroll.md');
    expect(missingSpecMessage(repo, 'exampels/orders.md')).toBe(
      'no folder exampels (for exampels/orders.md)',
    );
    expect(missingSpecMessage(repo, 'examples')).toBe('examples is a folder, not a spec file');
    expect(missingSpecMessage(repo, 'examples/orders.md')).toBeNull();
  });
});

describe('a port in use', () => {
  it('stops start before anything is migrated or seeded, naming --port', async () => {
    const data = join(dir, 'port-flag');
    const args = ['start', 'examples/expense-claims.md', '--api-only', '--demo', '--quiet', '--data', data];
    const { code, stdout, stderr } = await run([...args, '--port', String(heldPort)]);
    expect(code).toBe(1);
    expect(stderr).toContain(`Port ${heldPort} on 127.0.0.1 is already in use`);
    expect(stderr).toContain('Nothing was migrated or seeded');
    expect(stderr).toContain(`--port ${heldPort + 1}`);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).not.toContain('Migrated');
    expect(existsSync(join(data, 'ninefold.sqlite'))).toBe(false);
  });

  it('reads PORT when --port is not given, and the flag wins over it', async () => {
    const data = join(dir, 'port-env');
    const args = ['start', 'examples/orders.md', '--api-only', '--quiet', '--data', data];
    const fromEnv = await run(args, { env: { PORT: String(heldPort) } });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toContain(`Port ${heldPort} on 127.0.0.1 is already in use`);
    expect(existsSync(join(data, 'ninefold.sqlite'))).toBe(false);

    let server: Started | undefined;
    const flagWins = await run([...args, '--port', '0'], {
      env: { PORT: String(heldPort) },
      onStarted: (s) => (server = s),
    });
    try {
      expect(flagWins.code).toBe(0);
      expect(server?.url).not.toContain(`:${heldPort}`);
    } finally {
      await server?.close();
    }
    const bad = await run(args, { env: { PORT: 'eighty' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('PORT must be a whole number from 0 to 65535, not "eighty".\n');
  });
});

describe('the log', () => {
  it('is pretty on a terminal and JSON otherwise, unless --log says', () => {
    expect(chooseLogFormat(true, undefined)).toBe('pretty');
    expect(chooseLogFormat(false, undefined)).toBe('json');
    expect(chooseLogFormat(undefined, undefined)).toBe('json');
    expect(chooseLogFormat(true, 'json')).toBe('json');
    expect(chooseLogFormat(false, 'pretty')).toBe('pretty');
    expect(chooseLogFormat(true, 'yaml')).toBeNull();
  });

  it('refuses an unknown --log', async () => {
    const { code, stderr } = await run(['start', 'examples/orders.md', '--log', 'yaml']);
    expect(code).toBe(2);
    expect(stderr).toBe('--log is pretty or json, not "yaml".\n');
  });

  it('writes a request as one line with its method, address, status and time', () => {
    let out = '';
    const stream = prettyLogStream((text) => (out += text), palette({ write: () => true }));
    const time = new Date(2026, 10, 26, 14, 2, 11).getTime();
    const line = (entry: object) =>
      stream.write(`${JSON.stringify({ level: 30, time, pid: 1, hostname: 'h', ...entry })}\n`);
    line({ correlationId: 'r1', req: { method: 'GET', url: '/api/claims' }, msg: 'incoming request' });
    line({ correlationId: 'r1', res: { statusCode: 200 }, responseTime: 4.2, msg: 'request completed' });
    line({ level: 40, msg: 'database connection failed', correlationId: 'r2', cause: 'ECONNRESET' });
    line({
      level: 50,
      msg: 'The job runner failed',
      err: { message: 'boom', stack: 'Error: boom\n    at x' },
    });
    expect(out.split('\n')).toEqual([
      '14:02:11 INFO  GET /api/claims 200 4ms',
      '14:02:11 WARN  database connection failed  cause=ECONNRESET',
      '14:02:11 ERROR The job runner failed  error=boom',
      '',
    ]);
  });
});

describe('a spawned ninefold start --demo, its stdout piped', () => {
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise((done) => child!.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  });

  it('prints the demo accounts last, then logs JSON lines', async () => {
    child = spawn(
      process.execPath,
      [
        'packages/cli/bin/ninefold.js',
        'start',
        'packages/cli/templates/requests.md',
        ...['--port', '0', '--api-only', '--demo', '--no-demo-data', '--data', join(dir, 'spawned')],
      ],
      { cwd: repo, env: { ...process.env, PORT: '', DATABASE_URL: '', NO_COLOR: '1' }, stdio: 'pipe' },
    );
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const waitFor = async (test: () => boolean) => {
      for (let i = 0; i < 600 && !test(); i++) {
        if (child!.exitCode !== null) throw new Error(`start exited ${child!.exitCode}: ${stdout}`);
        await new Promise((done) => setTimeout(done, 100));
      }
    };
    const emails = ['requester@demo.ninefold.local', 'reviewer@demo.ninefold.local'];
    await waitFor(() => emails.every((email) => stdout.includes(email)));
    await new Promise((done) => setTimeout(done, 500)); // whatever else start-up would print
    const lines = stdout.trimEnd().split('\n');
    expect(lines.slice(-3)).toEqual([
      'Demo accounts (passwords change at every start):',
      expect.stringMatching(/^ {2}requester@demo\.ninefold\.local +\S+ {2}\(requester\)$/),
      expect.stringMatching(/^ {2}reviewer@demo\.ninefold\.local +\S+ {2}\(reviewer\)$/),
    ]);
    const url = /is running at (http:\/\/\S+)/.exec(stdout)?.[1];
    expect(stdout.indexOf('is running at')).toBeLessThan(stdout.indexOf('Demo accounts'));
    expect(stdout.indexOf('Migrated the database')).toBeLessThan(stdout.indexOf('Demo accounts'));

    expect((await fetch(`${url ?? ''}/health`)).status).toBe(200);
    await waitFor(() => stdout.includes('request completed'));
    const logged = stdout
      .split('\n')
      .filter((line) => line.includes('request completed'))
      .map((line) => JSON.parse(line) as { level: number; res: { statusCode: number } });
    expect(logged).toEqual([expect.objectContaining({ level: 30, res: { statusCode: 200 } })]);
  });
});
