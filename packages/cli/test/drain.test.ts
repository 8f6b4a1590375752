/**
 * `ninefold start` as an operator runs it: the built binary in its own process. SIGTERM must let the
 * requests already in flight finish, answer /ready with 503 meanwhile, and exit 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ninefold-drain-'));
let child: ChildProcess | undefined;
afterAll(() => {
  // never leave the server behind, whatever the test did
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Resolves when `test` holds for the text seen so far; rejects after `ms`. */
function waitFor(read: () => string, test: (text: string) => boolean, ms: number, what: string) {
  return new Promise<string>((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      const text = read();
      if (test(text)) {
        clearInterval(timer);
        resolve(text);
      } else if (Date.now() - started > ms) {
        clearInterval(timer);
        reject(new Error(`Timed out waiting for ${what}; output so far:\n${text}`));
      }
    }, 25);
  });
}

/** A raw connection whose request is written in parts, so it is in flight for as long as we like. */
function rawConnection(port: number) {
  let received = '';
  const socket: Socket = connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  const ready = new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  return {
    ready,
    write: (text: string) => new Promise<void>((resolve) => socket.write(text, () => resolve())),
    /** The whole response, once the server has closed the connection. */
    response: async () => {
      await closed;
      const [head = '', ...rest] = received.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      return { status, head, body: rest.join('\r\n\r\n') };
    },
  };
}

describe('ninefold start, stopped by SIGTERM', () => {
  it('finishes the requests in flight, answers /ready with 503 while draining, and exits 0', async () => {
    child = spawn(
      process.execPath,
      [
        'packages/cli/bin/ninefold.js',
        'start',
        'examples/expense-claims.md',
        '--port',
        '0',
        '--data',
        join(dir, 'data'),
        '--demo',
        '--quiet',
      ],
      // SQLite in a temporary folder: draining is the HTTP server's, whatever the database
      { cwd: repo, env: { ...process.env, DATABASE_URL: '', NO_COLOR: '1' }, stdio: 'pipe' },
    );
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr?.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    const exited = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)));

    await waitFor(
      () => stdout + stderr,
      // the demo accounts are printed last
      (t) => t.includes('/docs') && /\(employee\)$/m.test(t),
      20_000,
      'the server to start',
    );
    const port = Number(/running at http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)?.[1]);
    const account = /^\s+(employee@\S+)\s+(\S+)\s+\(employee\)$/m.exec(stdout);
    expect(port).toBeGreaterThan(0);
    expect(account).not.toBeNull();
    const credentials = JSON.stringify({ email: account?.[1], password: account?.[2] });
    const half = Math.floor(credentials.length / 2);

    // a sign-in whose body is half sent, and a /ready whose headers are half sent
    const login = rawConnection(port);
    await login.ready;
    await login.write(
      'POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n' +
        'Content-Type: application/json\r\nX-Ninefold-Csrf: 1\r\n' +
        `Content-Length: ${Buffer.byteLength(credentials)}\r\n\r\n${credentials.slice(0, half)}`,
    );
    const ready = rawConnection(port);
    await ready.ready;
    await ready.write('GET /ready HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await new Promise((resolve) => setTimeout(resolve, 300)); // the server has read both beginnings

    child.kill('SIGTERM');
    await waitFor(
      () => stdout,
      (t) => t.includes('SIGTERM: draining'),
      5_000,
      'the drain to begin',
    );
    await new Promise((resolve) => setTimeout(resolve, 200)); // the listener has stopped
    expect(child.exitCode).toBeNull(); // still serving what is in flight

    await ready.write('Connection: close\r\n\r\n');
    const readiness = await ready.response();
    expect(readiness.status, readiness.head).toBe(503);
    expect(JSON.parse(readiness.body)).toMatchObject({ code: 'E_UNAVAILABLE' });

    await login.write(credentials.slice(half));
    const signedIn = await login.response();
    expect(signedIn.status, signedIn.head + signedIn.body).toBe(200);
    expect(JSON.parse(signedIn.body)).toMatchObject({ user: { email: account?.[1] } });

    const code = await Promise.race([
      exited,
      new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 10_000)),
    ]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
  }, 45_000);
});
