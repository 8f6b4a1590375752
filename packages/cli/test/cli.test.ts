import { mkdtempSync, writeFileSync, mkdirSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs the command line against buffers, as a terminal would (or not, with `tty: false`). */
async function run(args: string[], options: { cwd?: string; tty?: boolean } = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t), isTTY: options.tty ?? false },
    stderr: { write: (t: string) => (stderr += t) },
    cwd: options.cwd ?? repo,
    env: {},
  });
  return { code, stdout, stderr };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ninefold-cli-'));
  writeFileSync(
    join(dir, 'broken.md'),
    [
      '# Broken',
      '## 3. Entities',
      '```yaml',
      'entities:',
      '  Task:',
      '    fields:',
      '      title: { type: string, maxLength: 80 }',
      '      due: { type: dat }',
      '```',
      '## 5. Rules',
      '```yaml',
      'rules:',
      '  - { id: short, entity: Task, assert: "size(titel) < 10" }',
      '```',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'ok.yaml'),
    'entities:\n  Note:\n    fields:\n      body: { type: text, required: true }\n',
  );
  writeFileSync(join(dir, 'binary.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff]));
  mkdirSync(join(dir, 'folder'));
  writeFileSync(join(dir, 'folder', 'a.yaml'), 'constants: { MAX: 3 }\n');
  writeFileSync(join(dir, 'folder', 'notes.json'), '{}');
});

describe('ninefold check', () => {
  it('checks the seed clean and names the nine unspecified facets', async () => {
    const { code, stdout } = await run(['check', 'examples/seed.txt']);
    expect(code).toBe(0);
    expect(stdout).toContain('✓ examples/seed.txt');
    expect(stdout).toContain('all nine facets unspecified');
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9]) expect(stdout).toMatch(new RegExp(`^ {4}${n}\\. `, 'm'));
  });

  it('prints every problem like tsc, with a hint and the line underlined, and exits 1', async () => {
    const { code, stdout } = await run(['check', join(dir, 'broken.md')]);
    expect(code).toBe(1);
    expect(stdout).toContain(`${join(dir, 'broken.md')}:8:20  error  NF205  \`dat\` is not a field type.`);
    expect(stdout).toContain('hint: did you mean `date`?');
    expect(stdout).toContain('      due: { type: dat }');
    const lines = stdout.split('\n');
    const source = lines.findIndex((l) => l.endsWith('due: { type: dat }'));
    expect(lines[source + 1]!.indexOf('~~~')).toBe(lines[source]!.indexOf('dat }'));
    expect(stdout).toContain('NF402');
    expect(stdout).toContain('did you mean `title`?');
    expect(stdout).toContain('1 with problems (2 errors)');
  });

  it('colours only on a terminal', async () => {
    const plain = await run(['check', 'examples/seed.txt']);
    const tty = await run(['check', 'examples/seed.txt'], { tty: true });
    expect(plain.stdout).not.toContain('\u001b[');
    expect(tty.stdout).toContain('\u001b[32m✓');
  });

  it('reports JSON with --json', async () => {
    const { code, stdout } = await run(['check', '--json', join(dir, 'ok.yaml'), join(dir, 'broken.md')]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as {
      file: string;
      ok: boolean;
      diagnostics: { code: string; line: number }[];
      summary: { entities: number } | null;
    }[];
    expect(report.map((r) => r.ok)).toEqual([true, false]);
    expect(report[0]!.summary!.entities).toBe(1);
    expect(report[1]!.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ['NF205', 8],
      ['NF402', 13],
    ]);
  });

  it('checks the spec files of a folder and skips the rest', async () => {
    const { code, stdout } = await run(['check', join(dir, 'folder')]);
    expect(code).toBe(0);
    expect(stdout).toContain('a.yaml');
    expect(stdout).not.toContain('notes.json');
    expect(stdout).toContain('1 spec checked, all valid.');
  });

  it('exits 2 for a file it cannot read, after checking the others', async () => {
    const { code, stdout } = await run(['check', join(dir, 'missing.md'), join(dir, 'ok.yaml')]);
    expect(code).toBe(2);
    expect(stdout).toContain('missing.md: no such file');
    expect(stdout).toContain('ok.yaml');
  });

  it('reports a binary file as a diagnostic, not a crash', async () => {
    const { code, stdout } = await run(['check', join(dir, 'binary.md')]);
    expect(code).toBe(1);
    expect(stdout).toContain('NF001');
  });

  it('refuses a file over the size limit without reading it whole', async () => {
    const huge = join(dir, 'huge.md');
    writeFileSync(huge, '# Huge\n');
    truncateSync(huge, 40 * 1024 * 1024); // sparse: 40 MiB on paper, nothing on disk
    const { code, stdout } = await run(['check', huge]);
    expect(code).toBe(1);
    expect(stdout).toContain('NF002  The file is larger than 32.0 MiB');
  });

  it('exits 2 on bad usage', async () => {
    expect((await run(['check'])).code).toBe(2);
    expect((await run(['check', '--nope', 'x.md'])).code).toBe(2);
    const unknown = await run(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command `frobnicate`');
  });

  it('shows help', async () => {
    const { code, stdout } = await run(['help', 'check']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: ninefold check');
  });
});
