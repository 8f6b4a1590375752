import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Secret, TOTP } from 'otpauth';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ninefold-cli-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Started = { url: string; close(): Promise<void> };

/** Runs the command line against buffers, on SQLite in a temporary folder. */
async function run(
  args: string[],
  options: { onStarted?: (server: Started) => void; env?: Record<string, string> } = {},
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

describe('ninefold start', () => {
  it('migrates, serves on a free port with demo accounts, answers /health, and closes', async () => {
    let server: Started | undefined;
    const data = join(dir, 'start');
    const { code, stdout, stderr } = await run(
      ['start', 'examples/expense-claims.md', '--port', '0', '--data', data, '--demo', '--quiet'],
      { onStarted: (s) => (server = s) },
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(server).toBeDefined();
    try {
      expect(stdout).toMatch(/Expense claims is running at http:\/\/127\.0\.0\.1:\d+/);
      expect(stdout).toContain('employee@demo.ninefold.local');
      expect(stdout).toMatch(/Demo data: 6 Departments, \d+ Claims, made through the API/);
      expect(stdout).toContain('/docs');
      const health = await fetch(`${server?.url ?? ''}/health`);
      expect(await health.json()).toEqual({ status: 'ok' });
    } finally {
      await server?.close();
    }
  });

  it('makes no demo records with --no-demo-data, nor into a product that has records', async () => {
    const data = join(dir, 'start-accounts-only');
    // accounts only; then the records, on the first start that allows them; then none again
    const starts = [
      { flags: ['--no-demo-data'], makesRecords: false },
      { flags: [], makesRecords: true },
      { flags: [], makesRecords: false },
    ];
    for (const { flags, makesRecords } of starts) {
      let server: Started | undefined;
      const { code, stdout } = await run(
        ['start', 'examples/expense-claims.md', '--port', '0', '--data', data, '--demo', '--quiet', ...flags],
        { onStarted: (s) => (server = s) },
      );
      await server?.close();
      expect(code).toBe(0);
      expect(stdout).toContain('employee@demo.ninefold.local');
      expect(stdout.includes('Demo data:')).toBe(makesRecords);
    }
  });

  it('believes X-Forwarded-Proto only from the proxies given with --trust-proxy', async () => {
    const data = join(dir, 'start-proxy');
    for (const { flags, secure } of [
      { flags: ['--trust-proxy', '127.0.0.1, 10.0.0.0/8'], secure: true },
      { flags: ['--trust-proxy', '1'], secure: true },
      { flags: ['--trust-proxy', '10.0.0.0/8'], secure: false },
      { flags: [], secure: false },
    ]) {
      let server: (Started & { demoAccounts: readonly { email: string; password: string }[] }) | undefined;
      const args = ['start', 'examples/expense-claims.md', '--port', '0', '--data', data];
      const { code, stderr } = await run([...args, '--demo', '--no-demo-data', '--quiet', ...flags], {
        onStarted: (s) => (server = s as typeof server),
      });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      try {
        const [account] = server?.demoAccounts ?? [];
        const answer = await fetch(`${server?.url ?? ''}/api/session`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-ninefold-csrf': '1',
            'x-forwarded-proto': 'https',
          },
          body: JSON.stringify({ email: account?.email, password: account?.password }),
        });
        expect(answer.status).toBe(200);
        expect(/;\s*secure/i.test(answer.headers.get('set-cookie') ?? ''), flags.join(' ')).toBe(secure);
      } finally {
        await server?.close();
      }
    }
  });

  it('explains its usage', async () => {
    expect((await run(['start'])).code).toBe(2);
    expect((await run(['start', 'x.md', '--port', 'abc'])).code).toBe(2);
    for (const proxies of ['0', '10', 'true', '10.0.0.0/33', 'proxy.example.com', '127.0.0.1,']) {
      const { code, stderr } = await run(['start', 'x.md', '--trust-proxy', proxies]);
      expect(code, proxies).toBe(2);
      expect(stderr).toContain('--trust-proxy takes');
    }
    const help = (await run(['help', 'start'])).stdout;
    expect(help).toContain('--accept-data-loss');
    expect(help).toContain('--trust-proxy');
    expect(help).toContain('--migrate');
  });
});

describe('ninefold migrate', () => {
  it('applies the plan with --apply, refuses a lossy one with exit 1, and applies it when accepted', async () => {
    const data = join(dir, 'migrate');
    const v1 = join(dir, 'v1.yaml');
    const v2 = join(dir, 'v2.yaml');
    writeFileSync(
      v1,
      'entities:\n  Note:\n    fields:\n      title: { type: string }\n      body: { type: text }\n',
    );
    writeFileSync(v2, 'entities:\n  Note:\n    fields:\n      title: { type: string }\n');
    const first = await run(['migrate', v1, '--data', data, '--apply']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Applied migration');
    expect((await run(['migrate', v1, '--data', data, '--apply'])).stdout).toContain(
      'already follows the spec',
    );
    const lossy = await run(['migrate', v2, '--data', data, '--apply']);
    expect(lossy.code).toBe(1);
    expect(lossy.stderr).toContain('body');
    expect(lossy.stderr).toContain('--accept-data-loss');
    const accepted = await run(['migrate', v2, '--data', data, '--apply', '--accept-data-loss']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain('body');
  });
});

describe('ninefold users', () => {
  it('adds, lists, sets roles, disables and resets passwords', async () => {
    const common = ['--spec', 'examples/expense-claims.md', '--data', join(dir, 'users')];
    const added = await run([
      'users',
      'add',
      '--email',
      'Ann@Example.com',
      '--name',
      'Ann',
      '--roles',
      'employee',
      ...common,
    ]);
    expect(added.code, added.stderr).toBe(0);
    // no password given: an invitation, its link printed this once (no SMTP_URL here)
    expect(added.stdout).toMatch(/Invitation link, shown this once .*\n {2}\/link#token=[A-Za-z0-9_-]{43}\n/);
    const again = await run([
      'users',
      'add',
      '--email',
      'ann@example.com',
      '--name',
      'Ann',
      '--roles',
      'employee',
      ...common,
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Another record already has this Email.');
    const badRole = await run([
      'users',
      'add',
      '--email',
      'b@example.com',
      '--name',
      'B',
      '--roles',
      'pilot',
      ...common,
    ]);
    expect(badRole.code).toBe(1);
    expect((await run(['users', 'set-roles', 'ann@example.com', 'manager,finance', ...common])).code).toBe(0);
    expect((await run(['users', 'disable', 'ann@example.com', ...common])).code).toBe(0);
    const listed = await run(['users', 'list', ...common]);
    expect(listed.stdout).toBe('ann@example.com  Ann  [manager, finance]  (disabled)\n');
    const reset = await run([
      'users',
      'reset-password',
      'ann@example.com',
      '--password',
      'a much longer password',
      ...common,
    ]);
    expect(reset.code, reset.stderr).toBe(0);
    expect((await run(['users', 'fly', ...common])).code).toBe(2);
    expect((await run(['users', 'list'])).code).toBe(2);
  });

  it('invites a user without a password, again on demand, by mail when SMTP_URL is set', async () => {
    const common = ['--spec', 'examples/expense-claims.md', '--data', join(dir, 'invitations')];
    const add = (email: string, env: Record<string, string> = {}, extra: string[] = []) =>
      run(['users', 'add', '--email', email, '--name', 'Bo', '--roles', 'employee', ...extra, ...common], {
        env,
      });
    const public_ = { NINEFOLD_PUBLIC_URL: 'https://claims.example.com/' };
    const bo = await add('bo@example.com', public_);
    expect(bo.code, bo.stderr).toBe(0);
    const first = /#token=(\S+)/.exec(bo.stdout)?.[1];
    expect(bo.stdout).toContain(`https://claims.example.com/link#token=${first ?? ''}`);
    const again = await run(['users', 'invite', 'Bo@Example.com', ...common], { env: public_ });
    expect(again.code, again.stderr).toBe(0);
    const second = /#token=(\S+)/.exec(again.stdout)?.[1];
    expect(second).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);

    // with SMTP_URL the link is mailed by the server's runner, never printed; it needs the public address
    const smtp = { SMTP_URL: 'smtp://127.0.0.1:2525' };
    const mailed = await run(['users', 'invite', 'bo@example.com', ...common], {
      env: { ...smtp, ...public_ },
    });
    expect(mailed.code, mailed.stderr).toBe(0);
    expect(mailed.stdout).toMatch(/^Invitation mailed to bo@example.com/);
    expect(mailed.stdout).not.toContain('token');
    const nowhere = await run(['users', 'invite', 'bo@example.com', ...common], { env: smtp });
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain('NINEFOLD_PUBLIC_URL');

    // a user with a password resets it instead; an unknown one is named
    expect((await add('cy@example.com', {}, ['--password', 'a much longer password'])).stdout).not.toContain(
      'Invitation',
    );
    const hasPassword = await run(['users', 'invite', 'cy@example.com', ...common]);
    expect(hasPassword.code).toBe(1);
    expect(hasPassword.stderr).toContain('already has a password');
    const unknown = await run(['users', 'invite', 'nobody@example.com', ...common]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('nobody@example.com');
  });

  it('takes a second factor away from someone who lost it, ending their sessions', async () => {
    const common = ['--spec', 'examples/expense-claims.md', '--data', join(dir, 'reset-mfa')];
    const password = 'a much longer password';
    const added = await run([
      'users',
      'add',
      '--email',
      'dee@example.com',
      '--name',
      'Dee',
      '--roles',
      'employee',
      '--password',
      password,
      ...common,
    ]);
    expect(added.code, added.stderr).toBe(0);
    const headers = { 'content-type': 'application/json', 'x-ninefold-csrf': '1' };
    const signIn = (url: string) =>
      fetch(`${url}/api/session`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'dee@example.com', password }),
      });
    const serve = async () => {
      let server: Started | undefined;
      const started = await run(
        [
          'start',
          'examples/expense-claims.md',
          '--port',
          '0',
          ...common.slice(2),
          '--demo',
          '--no-demo-data',
          '--quiet',
        ],
        {
          onStarted: (s) => (server = s),
        },
      );
      expect(started.code, started.stderr).toBe(0);
      return server!;
    };

    // Dee turns two-step sign-in on through the API, as the app does
    let server = await serve();
    let cookie = '';
    try {
      const answer = await signIn(server.url);
      cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const call = (path: string, body: object) =>
        fetch(`${server.url}/api/${path}`, {
          method: 'POST',
          headers: { ...headers, cookie },
          body: JSON.stringify(body),
        });
      const { secret } = (await (await call('account/mfa', { currentPassword: password })).json()) as {
        secret: string;
      };
      const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
      expect((await call('account/mfa/confirm', { code })).status).toBe(200);
      expect((await signIn(server.url)).status).toBe(202);
    } finally {
      await server.close();
    }

    const reset = await run(['users', 'reset-mfa', 'Dee@Example.com', ...common]);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toContain('Two-step sign-in is off for dee@example.com');
    const again = await run(['users', 'reset-mfa', 'dee@example.com', ...common]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('has no second factor');
    expect((await run(['users', 'reset-mfa', 'nobody@example.com', ...common])).code).toBe(1);

    server = await serve();
    try {
      // the password alone signs in again; the session of before is over
      expect((await signIn(server.url)).status).toBe(200);
      expect((await fetch(`${server.url}/api/session`, { headers: { cookie } })).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
