/**
 * `ninefold init`: a newcomer's first command (decision 0062). It writes a starter spec from one of
 * the templates shipped beside the package (`templates/*.md`, spec Markdown, not code), named as the
 * person asks, and prints the two commands that come next. On a terminal it asks what the flags
 * did not say; it never overwrites a file.
 */
import { parseArgs } from 'node:util';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, palette, type Io } from '../io.js';

/** The folder of the templates: `packages/cli/templates`, from `src/` (tests) and `dist/` alike. */
const TEMPLATES_DIR = fileURLToPath(new URL('../../templates/', import.meta.url));

/** The file name `init` writes into a folder it is given. */
const DEFAULT_FILE = 'product.md';

export const INIT_HELP = `Usage: ninefold init [dir|file] [options]

Writes a starter spec, a nine-section product you can start at once and change from there.
Given a folder (default: the current one), it writes ${DEFAULT_FILE} there; given a file name
ending in .md, that file. It never overwrites a file.

On a terminal it asks for what the options do not say; elsewhere the defaults apply.

Options:
  --template <name>   the starting point: ${listTemplates().join(', ')} (default requests)
  --name <text>       the product's name (default: the template's)
`;

/** A template as the questions offer it: its name and the first sentence of its first section. */
interface Template {
  readonly name: string;
  readonly text: string;
}

/** The names of the shipped templates, sorted. */
export function listTemplates(): string[] {
  let files: string[];
  try {
    files = readdirSync(TEMPLATES_DIR);
  } catch {
    return []; // a copy of the package without its templates: init says there is none to choose
  }
  return files
    .filter((file) => file.endsWith('.md'))
    .map((file) => basename(file, '.md'))
    .sort();
}

function readTemplate(name: string): Template {
  return { name, text: readFileSync(join(TEMPLATES_DIR, `${name}.md`), 'utf8') };
}

/**
 * The template's text renamed: its title and `product.name` say `name`. A name YAML could misread
 * (a colon, a quote, a leading symbol) is written as a quoted string.
 *
 * @example renameProduct('# Requests\n…\n  name: Requests\n', 'Leave') // '# Leave\n…\n  name: Leave\n'
 */
export function renameProduct(text: string, name: string): string {
  const yaml = /^[\p{L}\p{N}][\p{L}\p{N} ,.'&()-]*$/u.test(name) ? name : JSON.stringify(name);
  return text.replace(/^# .*$/m, `# ${name}`).replace(/^(product:\n {2}name: ).*$/m, `$1${yaml}`);
}

/** `ninefold init`. */
export async function init(args: readonly string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { template: { type: 'string' }, name: { type: 'string' } },
    });
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${INIT_HELP}`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) {
    io.stderr.write(`Give one folder or file to write the spec to.\n\n${INIT_HELP}`);
    return EXIT.usage;
  }
  const templates = listTemplates();
  if (templates.length === 0) {
    io.stderr.write(`No templates were found in ${TEMPLATES_DIR}: this copy of Ninefold is incomplete.\n`);
    return EXIT.errors;
  }
  if (values.template !== undefined && !templates.includes(values.template)) {
    io.stderr.write(`There is no template \`${values.template}\`: choose one of ${templates.join(', ')}.\n`);
    return EXIT.usage;
  }
  const name = values.name?.trim();
  if (name !== undefined && (name === '' || name.length > 80 || /[\n\r]/.test(name))) {
    io.stderr.write('--name is the product name: one line of 1 to 80 characters.\n');
    return EXIT.usage;
  }

  const target = specTarget(io.cwd, positionals[0]);
  const near = relative(io.cwd, target);
  const shown = near === '' || near.startsWith('..') ? target : near;
  if (existsSync(target)) {
    io.stderr.write(`${shown} already exists: init never overwrites a file. Give another name or folder.\n`);
    return EXIT.errors;
  }

  const answers = await ask(io, templates, { template: values.template, name });
  if (answers === null) return EXIT.errors;
  const template = readTemplate(answers.template);
  const text = answers.name === undefined ? template.text : renameProduct(template.text, answers.name);
  try {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text, { flag: 'wx' }); // wx: a file made meanwhile is not overwritten either
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    io.stderr.write(
      code === 'EEXIST'
        ? `${shown} already exists: init never overwrites a file.\n`
        : `Could not write ${shown}: ${code === 'EACCES' ? 'permission denied' : (code ?? 'unknown error')}.\n`,
    );
    return EXIT.errors;
  }
  const c = palette(io.stdout, io.env);
  const spec = quoteForShell(shown);
  io.stdout.write(
    [
      `${c.green('✓')} Wrote ${c.bold(shown)} from the ${answers.template} template.`,
      '',
      'Next:',
      `  npx ninefold check ${spec}          ${c.dim('# the diagnostics and the nine facets')}`,
      `  npx ninefold start ${spec} --demo   ${c.dim('# serve it, with one demo account per role')}`,
      '',
      `The tutorial (docs/tutorial.md) takes it from there: a field, a rule, a transition, a role.`,
      '',
    ].join('\n'),
  );
  return EXIT.ok;
}

/** Where the spec goes: a `.md` path as given, else `product.md` in the folder given (or here). */
function specTarget(cwd: string, given: string | undefined): string {
  const path = resolve(cwd, given ?? '.');
  const isFolder = existsSync(path) && statSync(path).isDirectory();
  if (!isFolder && extname(path).toLowerCase() === '.md') return path;
  return join(path, DEFAULT_FILE);
}

/**
 * What the flags left open, asked on a terminal (the product's name, what people track); off a
 * terminal, the defaults. Null when the person ends the questions (Ctrl-D).
 */
async function ask(
  io: Io,
  templates: readonly string[],
  given: { template: string | undefined; name: string | undefined },
): Promise<{ template: string; name: string | undefined } | null> {
  const fallback = templates.includes('requests') ? 'requests' : templates[0]!;
  if (io.stdin?.isTTY !== true || (given.template !== undefined && given.name !== undefined))
    return { template: given.template ?? fallback, name: given.name };
  const rl = createInterface({ input: io.stdin, terminal: false });
  const lines = rl[Symbol.asyncIterator](); // buffers the lines typed (or piped) ahead of a question
  const question = async (text: string): Promise<string | null> => {
    io.stdout.write(text);
    const next = await lines.next();
    return next.done === true ? null : String(next.value).trim();
  };
  try {
    let template = given.template;
    while (template === undefined) {
      const choices = templates.map((t, i) => `  ${i + 1}. ${t} — ${summaryOf(readTemplate(t))}`).join('\n');
      const answer = await question(
        `What do people track with it?\n${choices}\nChoose 1-${templates.length} [${templates.indexOf(fallback) + 1}]: `,
      );
      if (answer === null) return null;
      const index = answer === '' ? templates.indexOf(fallback) : Number(answer) - 1;
      template = templates[index] ?? templates.find((t) => t === answer.toLowerCase());
      if (template === undefined)
        io.stdout.write(`Answer a number from 1 to ${templates.length}, or a name.\n`);
    }
    let name = given.name;
    if (name === undefined) {
      const answer = await question(`The product's name [${productNameOf(readTemplate(template))}]: `);
      if (answer === null) return null;
      name = answer === '' ? undefined : answer.slice(0, 80);
    }
    return { template, name };
  } finally {
    rl.close();
  }
}

/** A template's `product.summary`, for the menu. */
function summaryOf(template: Template): string {
  return /^ {2}summary: (.*)$/m.exec(template.text)?.[1] ?? template.name;
}

function productNameOf(template: Template): string {
  return /^product:\n {2}name: (.*)$/m.exec(template.text)?.[1] ?? template.name;
}

/** A path as a shell reads it: quoted when it holds anything but plain characters. */
function quoteForShell(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
