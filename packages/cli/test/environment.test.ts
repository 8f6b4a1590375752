/**
 * A webhook's or single sign-on's `${NAME}` unset where the product runs (decisions 0030, 0036):
 * `ninefold start` and `ninefold worker` refuse with a plain message naming every unset variable and
 * what reads it (exit 1, no stack trace); `--demo` starts with that webhook or single sign-on off
 * instead. And mail by SMTP without the product's public address, which sign-in links need.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '@ninefold/language';
import { unsetVariables } from '../src/environment.js';
import { main } from '../src/main.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ninefold-cli-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SPEC = `
entities:
  Claim: { fields: { title: string } }
states:
  Claim:
    initial: draft
    transitions:
      pay: { from: draft, to: paid }
webhooks:
  ledger:
    on: [Claim.pay, Claim.created]
    url: \${LEDGER_URL}
    secret: \${LEDGER_SECRET}
  archive:
    on: Claim.deleted
    url: "https://archive.example.com/\${ARCHIVE_TOKEN}"
    secret: \${LEDGER_SECRET}
`;
const specPath = join(dir, 'claims.yaml');
writeFileSync(specPath, SPEC);

const ALL_SET = {
  LEDGER_URL: 'http://127.0.0.1:9/ledger',
  LEDGER_SECRET: 'whsec_c2VjcmV0',
  ARCHIVE_TOKEN: 't0k3n',
};

type Started = { url: string; close(): Promise<void> };

/** Runs the command line against buffers with exactly `env` as its environment. */
async function run(args: string[], env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  let server: Started | undefined;
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    cwd: dir,
    env,
    onStarted: (s) => (server = s),
  });
  return { code, stdout, stderr, server };
}

const startArgs = (data: string) => [
  'start',
  specPath,
  '--port',
  '0',
  '--data',
  join(dir, data),
  '--quiet',
  '--api-only',
];

describe('the variables a spec reads', () => {
  it('are each named once, with every webhook and key that reads them; empty counts as unset', () => {
    const compiled = compile(SPEC, { file: 'claims.yaml' });
    if (!compiled.ok) expect.fail(compiled.diagnostics.map((d) => d.message).join('\n'));
    expect(unsetVariables(compiled.model, { LEDGER_URL: '' })).toEqual([
      { name: 'LEDGER_URL', readers: ['webhook `ledger` (url)'], webhooks: ['ledger'], singleSignOn: false },
      {
        name: 'LEDGER_SECRET',
        readers: ['webhook `ledger` (secret)', 'webhook `archive` (secret)'],
        webhooks: ['ledger', 'archive'],
        singleSignOn: false,
      },
      {
        name: 'ARCHIVE_TOKEN',
        readers: ['webhook `archive` (url)'],
        webhooks: ['archive'],
        singleSignOn: false,
      },
    ]);
    expect(unsetVariables(compiled.model, ALL_SET)).toEqual([]);
  });
});

describe('ninefold start with a variable unset', () => {
  it('refuses with exit 1, naming every unset variable and the webhook reading it', async () => {
    const { code, stdout, stderr, server } = await run(startArgs('refused'), { ARCHIVE_TOKEN: 'x' });
    expect(code).toBe(1);
    expect(server).toBeUndefined();
    expect(stdout).not.toMatch(/is running at/);
    expect(stderr).toContain('Could not start: The spec reads environment variables that are not set:');
    expect(stderr).toContain('LEDGER_URL, read by webhook `ledger` (url)');
    expect(stderr).toContain(
      'LEDGER_SECRET, read by webhook `ledger` (secret) and webhook `archive` (secret)',
    );
    expect(stderr).not.toContain('ARCHIVE_TOKEN');
  });

  it('starts when every variable is set', async () => {
    const { code, stderr, server } = await run(startArgs('all-set'), ALL_SET);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    try {
      expect((await fetch(`${server!.url}/health`)).status).toBe(200);
    } finally {
      await server?.close();
    }
  });

  it('starts with --demo, saying which webhooks are off', async () => {
    const { code, stdout, stderr, server } = await run([...startArgs('demo'), '--demo'], {
      LEDGER_URL: 'http://127.0.0.1:9/ledger',
      LEDGER_SECRET: 'whsec_c2VjcmV0',
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    try {
      expect(stdout).toContain('Demo: webhook `archive` is off, as ARCHIVE_TOKEN is not set.');
      expect((await fetch(`${server!.url}/health`)).status).toBe(200);
    } finally {
      await server?.close();
    }
  });

  it('as the built binary: exit 1 and a plain message, no stack trace', () => {
    const result = spawnSync(process.execPath, ['packages/cli/bin/ninefold.js', ...startArgs('binary')], {
      cwd: repo,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' },
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('LEDGER_URL, read by webhook `ledger` (url)');
    expect(result.stderr).toContain('ARCHIVE_TOKEN, read by webhook `archive` (url)');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('ninefold worker with a variable unset', () => {
  it('refuses with exit 1, naming the variables', async () => {
    const databaseUrl = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
    const { code, stdout, stderr, server } = await run(['worker', specPath], { DATABASE_URL: databaseUrl });
    expect(code).toBe(1);
    expect(server).toBeUndefined();
    expect(stdout).not.toMatch(/Running the jobs/);
    expect(stderr).toContain('LEDGER_URL, read by webhook `ledger` (url)');
    expect(stderr).toContain('ARCHIVE_TOKEN, read by webhook `archive` (url)');
  });
});

const SSO_SPEC = `
entities:
  Claim: { fields: { title: string } }
roles:
  employee: { Claim: true }
auth:
  signUp: employee
  oidc:
    issuer: https://\${OIDC_HOST}/realms/acme
    clientId: \${OIDC_CLIENT_ID}
    clientSecret: \${OIDC_CLIENT_SECRET}
    label: Acme
webhooks:
  ledger: { on: Claim.created, url: "\${LEDGER_URL}", secret: "\${LEDGER_SECRET}" }
`;
const ssoPath = join(dir, 'sso.yaml');
writeFileSync(ssoPath, SSO_SPEC);

const SSO_SET = {
  OIDC_HOST: 'login.example.com',
  OIDC_CLIENT_ID: 'claims',
  OIDC_CLIENT_SECRET: 'c2VjcmV0',
  LEDGER_URL: 'http://127.0.0.1:9/ledger',
  LEDGER_SECRET: 'whsec_c2VjcmV0',
};

const ssoArgs = (data: string) => [...startArgs(data).slice(0, 1), ssoPath, ...startArgs(data).slice(2)];

/** What a signed-out visitor learns of `auth` from the running server's model. */
async function publicAuth(server: Started): Promise<{ oidc: { label: string } | null }> {
  const answer = await fetch(`${server.url}/api/model`);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { auth: { oidc: { label: string } | null } }).auth;
}

describe('single sign-on (auth.oidc) with a variable unset', () => {
  it('names each variable single sign-on reads, beside the webhooks', () => {
    const compiled = compile(SSO_SPEC, { file: 'sso.yaml' });
    if (!compiled.ok) expect.fail(compiled.diagnostics.map((d) => d.message).join('\n'));
    expect(unsetVariables(compiled.model, { OIDC_CLIENT_ID: 'claims', LEDGER_SECRET: 'x' })).toEqual([
      { name: 'LEDGER_URL', readers: ['webhook `ledger` (url)'], webhooks: ['ledger'], singleSignOn: false },
      {
        name: 'OIDC_HOST',
        readers: ['single sign-on (auth.oidc) as `issuer`'],
        webhooks: [],
        singleSignOn: true,
      },
      {
        name: 'OIDC_CLIENT_SECRET',
        readers: ['single sign-on (auth.oidc) as `clientSecret`'],
        webhooks: [],
        singleSignOn: true,
      },
    ]);
    expect(unsetVariables(compiled.model, SSO_SET)).toEqual([]);
  });

  it('ninefold start refuses with exit 1, naming each variable and single sign-on', async () => {
    const { OIDC_CLIENT_SECRET: _, ...env } = SSO_SET;
    const { code, stdout, stderr, server } = await run(ssoArgs('sso-refused'), { ...env, OIDC_HOST: '' });
    expect(code).toBe(1);
    expect(server).toBeUndefined();
    expect(stdout).not.toMatch(/is running at/);
    expect(stderr).toContain('Could not start: The spec reads environment variables that are not set:');
    expect(stderr).toContain('OIDC_CLIENT_SECRET, read by single sign-on (auth.oidc) as `clientSecret`');
    expect(stderr).toContain('OIDC_HOST, read by single sign-on (auth.oidc) as `issuer`');
    expect(stderr).not.toContain('OIDC_CLIENT_ID');
    expect(stderr).not.toContain('LEDGER');
  });

  it('ninefold start serves single sign-on when every variable is set', async () => {
    const { code, stderr, server } = await run(ssoArgs('sso-set'), SSO_SET);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    try {
      expect((await publicAuth(server!)).oidc?.label).toBe('Acme');
    } finally {
      await server?.close();
    }
  });

  it('ninefold start --demo starts with single sign-on off, saying so in a line of its own', async () => {
    const { code, stdout, stderr, server } = await run([...ssoArgs('sso-demo'), '--demo', '--no-demo-data'], {
      OIDC_CLIENT_ID: 'claims',
      LEDGER_SECRET: 'whsec_c2VjcmV0',
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    try {
      expect(stdout).toContain('Demo: webhook `ledger` is off, as LEDGER_URL is not set.');
      expect(stdout).toContain(
        'Demo: single sign-on (auth.oidc) is off, as OIDC_HOST, OIDC_CLIENT_SECRET are not set.',
      );
      expect((await publicAuth(server!)).oidc).toBeNull();
    } finally {
      await server?.close();
    }
  });

  it('ninefold worker refuses with exit 1, naming them', async () => {
    const databaseUrl = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
    const { OIDC_HOST: _, ...env } = SSO_SET;
    const { code, stdout, stderr } = await run(['worker', ssoPath], { ...env, DATABASE_URL: databaseUrl });
    expect(code).toBe(1);
    expect(stdout).not.toMatch(/Running the jobs/);
    expect(stderr).toContain('OIDC_HOST, read by single sign-on (auth.oidc) as `issuer`');
  });
});

describe('mail by SMTP needs the public address', () => {
  const plainPath = join(dir, 'plain.yaml');
  writeFileSync(plainPath, 'entities:\n  Claim: { fields: { title: string } }\n');
  const plainArgs = (data: string) => [
    'start',
    plainPath,
    '--port',
    '0',
    '--data',
    join(dir, data),
    '--quiet',
    '--api-only',
  ];

  it('as the built binary: SMTP_URL without NINEFOLD_PUBLIC_URL is exit 1 and a plain message', () => {
    for (const publicUrl of [undefined, '  ']) {
      const result = spawnSync(
        process.execPath,
        ['packages/cli/bin/ninefold.js', ...plainArgs('smtp-refused')],
        {
          cwd: repo,
          encoding: 'utf8',
          env: {
            PATH: process.env['PATH'] ?? '',
            NO_COLOR: '1',
            SMTP_URL: 'smtp://127.0.0.1:2525',
            ...(publicUrl === undefined ? {} : { NINEFOLD_PUBLIC_URL: publicUrl }),
          },
          timeout: 60_000,
        },
      );
      expect(result.status).toBe(1);
      expect(result.stdout).not.toMatch(/is running at/);
      expect(result.stderr).toContain('Could not start: SMTP_URL is set, but NINEFOLD_PUBLIC_URL is not');
      expect(result.stderr).toContain('Set NINEFOLD_PUBLIC_URL to it, like https://help.example.com');
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('starts with both set, and with neither (mail kept in the outbox)', async () => {
    for (const env of [
      { SMTP_URL: 'smtp://127.0.0.1:2525', NINEFOLD_PUBLIC_URL: 'https://claims.example.com' },
      { NINEFOLD_PUBLIC_URL: '' },
    ]) {
      const { code, stderr, server } = await run(plainArgs('smtp-ok'), env);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      await server?.close();
    }
  });
});
