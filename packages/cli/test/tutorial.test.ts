/**
 * docs/tutorial.md, followed as a reader would (decision 0062): its `npx ninefold init` writes the
 * starter spec, each of its YAML blocks replaces the spec's block with the same first key, its
 * `check` passes with no diagnostic, its typo gives the very output it shows, and its `start --demo`
 * serves the first spec and then migrates the data to the final one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from '@ninefold/language';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const tutorial = readFileSync(join(repo, 'docs', 'tutorial.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'ninefold-tutorial-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The fenced blocks of one language, in the order of the page. */
function blocks(language: string): string[] {
  return [...tutorial.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
}

/** Every `npx ninefold …` command of the page's shell blocks, as arguments, in order. */
const commands = blocks('sh')
  .flatMap((block) => block.split('\n'))
  .filter((line) => line.startsWith('npx ninefold '))
  .map((line) =>
    [...line.slice('npx ninefold '.length).matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!),
  );

type Started = { url: string; close(): Promise<void>; demoAccounts: readonly { role: string }[] };

async function run(args: string[], onStarted?: (server: Started) => void) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    cwd: dir,
    env: {},
    ...(onStarted === undefined ? {} : { onStarted: onStarted as (server: unknown) => void }),
  });
  return { code, stdout, stderr };
}

/** `start` as the page gives it, on a free port and without the web app, until the test closes it. */
async function startAsWritten(args: string[]): Promise<{ stdout: string; server: Started }> {
  let server: Started | undefined;
  const started = await run([...args, '--port', '0', '--api-only', '--quiet'], (s) => (server = s));
  expect(started.stderr).toBe('');
  expect(started.code).toBe(0);
  return { stdout: started.stdout, server: server! };
}

/** The spec with the block that starts with `block`'s first key replaced by `block`. */
function replaceBlock(spec: string, block: string): string {
  const key = block.slice(0, block.indexOf(':'));
  const pattern = new RegExp('(```yaml\\n)' + key + ':\\n[\\s\\S]*?(```)');
  expect(spec, `the spec has a ${key} block`).toMatch(pattern);
  return spec.replace(pattern, (_all, open: string, close: string) => `${open}${block}${close}`);
}

describe('docs/tutorial.md', () => {
  it('gives init, check and start, in that order', () => {
    expect(commands.map((c) => c[0])).toEqual(['init', 'check', 'start', 'check', 'start']);
  });

  it('works as written, from init to the restart on the final spec', async () => {
    const [init, check, start] = commands;
    const written = await run(init!);
    expect(written.code).toBe(0);
    const file = join(dir, check![1]!);

    // step 2: the starter spec checks clean and serves with its demo accounts
    const first = await run(check!);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('all nine facets specified');
    const before = await startAsWritten(start!);
    await before.server.close();
    const listed = blocks('text')[0]!
      .split('\n')
      .filter((line) => line.includes('@demo.'));
    for (const line of listed) expect(before.stdout).toContain(line.trim().split(' ')[0]);

    // steps 3 to 6: every YAML block replaces its own; check then reports nothing at all
    const yaml = blocks('yaml');
    expect(yaml.length).toBeGreaterThanOrEqual(6);
    let spec = readFileSync(file, 'utf8');
    for (const block of yaml) spec = replaceBlock(spec, block);
    writeFileSync(file, spec);
    const final = compile(spec, { file });
    expect(final.diagnostics).toEqual([]);
    if (!final.ok) throw new Error('the final spec does not compile');
    expect(final.model.entities['Request']?.fields['priority']?.type).toBe('enum');
    expect(final.model.rules.map((r) => r.id)).toContain('high-priority-says-why');
    expect(Object.keys(final.model.states['Request']?.transitions ?? {})).toContain('withdraw');
    expect(Object.keys(final.model.roles)).toContain('observer');

    // step 7: the typo, and check's output exactly as the page shows it
    writeFileSync(file, spec.replace("assert: \"priority != 'high'", "assert: \"priorty != 'high'"));
    const typo = await run(check!);
    expect(typo.code).toBe(1);
    const shown = blocks('text').find((block) => block.includes('NF402'))!;
    expect(typo.stdout).toContain(shown.trimEnd());
    writeFileSync(file, spec);

    // step 8: the restart migrates the demo's data to the final spec, with an account per role
    const after = await startAsWritten(commands[4]!);
    try {
      expect(after.stdout).toMatch(/Migrated the database \(migration 2\)/);
      expect(after.server.demoAccounts.map((a) => a.role)).toEqual(['requester', 'reviewer', 'observer']);
    } finally {
      await after.server.close();
    }
  });
});
