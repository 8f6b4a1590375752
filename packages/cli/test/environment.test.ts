/**
 * A webhook's `${NAME}` unset where the product runs (decision 0030): `ninefold start` and
 * `ninefold worker` refuse with a plain message naming every unset variable and the webhook that
 * reads it (exit 1, no stack trace); `--demo` starts with that webhook off instead.
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
      { name: 'LEDGER_URL', readers: ['webhook `ledger` (url)'], webhooks: ['ledger'] },
      {
        name: 'LEDGER_SECRET',
        readers: ['webhook `ledger` (secret)', 'webhook `archive` (secret)'],
        webhooks: ['ledger', 'archive'],
      },
      { name: 'ARCHIVE_TOKEN', readers: ['webhook `archive` (url)'], webhooks: ['archive'] },
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
