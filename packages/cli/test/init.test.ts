/**
 * `ninefold init` (decision 0062): every shipped template is a spec that compiles with no
 * diagnostic and specifies all nine facets, that `start --demo` serves with records of every entity;
 * init names it as asked, asks on a terminal what the flags left open, and never overwrites a file.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { compile } from '@ninefold/language';
import { afterAll, describe, expect, it } from 'vitest';
import { listTemplates, renameProduct } from '../src/commands/init.js';
import { type Io } from '../src/io.js';
import { main } from '../src/main.js';

const dir = mkdtempSync(join(tmpdir(), 'ninefold-init-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Started = { url: string; close(): Promise<void> };

async function run(
  args: string[],
  options: { cwd?: string; stdin?: Io['stdin']; onStarted?: (server: Started) => void } = {},
) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    cwd: options.cwd ?? dir,
    env: {},
    ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
    ...(options.onStarted === undefined ? {} : { onStarted: options.onStarted }),
  });
  return { code, stdout, stderr };
}

/** Answers typed at a terminal, one line each. */
function terminal(...lines: string[]): Io['stdin'] {
  return Object.assign(Readable.from(lines.map((line) => `${line}\n`)), { isTTY: true });
}

const templates = listTemplates();

describe('ninefold init', () => {
  it('ships at least three templates', () => {
    expect(templates.length).toBeGreaterThanOrEqual(3);
    expect(templates).toEqual(expect.arrayContaining(['requests', 'inventory', 'bookings']));
  });

  it.each(templates)(
    'writes the %s template, named as asked, with no diagnostic and all nine facets',
    async (template) => {
      const folder = join(dir, `clean-${template}`);
      const { code, stdout, stderr } = await run([
        'init',
        folder,
        '--template',
        template,
        '--name',
        'Our Team',
      ]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const file = join(folder, 'product.md');
      // the next two commands, with the path as typed from where init ran
      expect(stdout).toContain(`npx ninefold check clean-${template}/product.md`);
      expect(stdout).toContain(`npx ninefold start clean-${template}/product.md --demo`);
      const compiled = compile(readFileSync(file, 'utf8'), { file });
      expect(compiled.diagnostics).toEqual([]);
      expect(compiled.ok && compiled.summary.unspecified).toEqual([]);
      expect(compiled.ok && compiled.model.product.name).toBe('Our Team');
    },
  );

  it.each(templates)(
    'writes a %s spec that start --demo serves with records of every entity',
    async (template) => {
      const file = join(dir, `served-${template}.md`);
      expect((await run(['init', file, '--template', template])).code).toBe(0);
      let server: Started | undefined;
      const data = join(dir, `data-${template}`);
      const started = await run(
        ['start', file, '--port', '0', '--api-only', '--demo', '--quiet', '--data', data],
        {
          onStarted: (s) => (server = s),
        },
      );
      try {
        expect(started.stderr).toBe('');
        expect(started.code).toBe(0);
        const compiled = compile(readFileSync(file, 'utf8'), { file });
        if (!compiled.ok) throw new Error('the template does not compile');
        const entities = Object.values(compiled.model.entities).filter((e) => e.name !== 'User');
        for (const entity of entities)
          expect(started.stdout).toMatch(new RegExp(`Demo data:.* \\d+ ${entity.pluralLabel}`));
        for (const role of Object.keys(compiled.model.roles))
          expect(started.stdout).toContain(`${role}@demo.ninefold.local`);
        expect((await fetch(`${server?.url ?? ''}/health`)).status).toBe(200);
      } finally {
        await server?.close();
      }
    },
  );

  it('writes product.md into the current folder by default, and a .md file as named', async () => {
    const here = join(dir, 'here');
    mkdirSync(here);
    expect((await run(['init'], { cwd: here })).code).toBe(0);
    expect(readFileSync(join(here, 'product.md'), 'utf8')).toMatch(/^# Requests\n/);
    expect((await run(['init', 'specs/leave.md', '--template', 'bookings'], { cwd: here })).code).toBe(0);
    expect(readFileSync(join(here, 'specs', 'leave.md'), 'utf8')).toMatch(/^# Bookings\n/);
  });

  it('never overwrites a file: a clear message and exit 1', async () => {
    const file = join(dir, 'mine.md');
    writeFileSync(file, 'my own words\n');
    const { code, stderr, stdout } = await run(['init', file, '--template', 'inventory']);
    expect(code).toBe(1);
    expect(stderr).toContain('mine.md already exists: init never overwrites a file.');
    expect(stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe('my own words\n');
  });

  it('asks on a terminal what the flags leave open', async () => {
    const folder = join(dir, 'asked');
    const { code, stdout } = await run(['init', folder], { stdin: terminal('9', '2', 'Parts: the store') });
    expect(code).toBe(0);
    expect(stdout).toContain('What do people track with it?');
    expect(stdout).toContain('Answer a number from 1 to'); // "9" is not a choice: asked again
    expect(stdout).toContain(`from the ${templates[1]} template`);
    const compiled = compile(readFileSync(join(folder, 'product.md'), 'utf8'));
    expect(compiled.diagnostics).toEqual([]);
    expect(compiled.ok && compiled.model.product.name).toBe('Parts: the store');
  });

  it('asks nothing that a flag answered, and writes nothing when the questions are ended', async () => {
    const folder = join(dir, 'flagged');
    const flagged = await run(['init', folder, '--template', 'bookings', '--name', 'Desks'], {
      stdin: terminal(),
    });
    expect(flagged.code).toBe(0);
    expect(flagged.stdout).not.toContain('?');
    // an empty answer takes the default shown in brackets: the requests template
    const defaults = join(dir, 'defaults');
    const answered = await run(['init', defaults], { stdin: terminal('', '') });
    expect(answered.stdout).toContain(`Choose 1-${templates.length} [${templates.indexOf('requests') + 1}]`);
    expect(readFileSync(join(defaults, 'product.md'), 'utf8')).toMatch(/^# Requests\n/);
    const ended = join(dir, 'ended');
    const { code } = await run(['init', ended], { stdin: terminal() });
    expect(code).toBe(1);
    expect(existsSync(join(ended, 'product.md'))).toBe(false);
  });

  it('refuses an unknown template or a name that is not one line', async () => {
    const unknown = await run(['init', join(dir, 'x'), '--template', 'crm']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no template `crm`: choose one of');
    expect((await run(['init', join(dir, 'y'), '--name', ''])).code).toBe(2);
    expect(existsSync(join(dir, 'x'))).toBe(false);
  });

  it('quotes a name that YAML would misread', () => {
    const text = '# Requests\n\n```yaml\nproduct:\n  name: Requests\n```\n';
    expect(renameProduct(text, 'Leave')).toBe('# Leave\n\n```yaml\nproduct:\n  name: Leave\n```\n');
    expect(renameProduct(text, '#1: "best"')).toContain('  name: "#1: \\"best\\""\n');
  });
});
