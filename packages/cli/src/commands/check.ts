import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { compile, LIMITS, type CompileResult } from '@ninefold/language';
import { formatDiagnostic, formatSummary } from '../format.js';
import { EXIT, palette, type Io } from '../io.js';
import { nearestSpec } from '../spec-path.js';
import { isTranslationFile, readSpecTranslations } from '../spec-translations.js';

const SPEC_FILE = /\.(md|markdown|txt|ya?ml)$/i;

export const CHECK_HELP = `Usage: ninefold check [--json] <file|folder>…

Compiles each spec and prints its diagnostics and a summary: what it declares and which of the nine
facets it leaves unspecified. A folder is checked file by file (*.md, *.txt, *.yaml, *.yml).

Options:
  --json   print one JSON document: [{ file, ok, diagnostics, summary }]

Exit status: 0 when every spec is valid (warnings allowed), 1 when any has errors,
2 when a file cannot be read or the command is misused.
`;

interface Checked {
  readonly file: string;
  readonly source: string;
  /** The translation files read with the spec, by path: their diagnostics quote their lines. */
  readonly translations?: Readonly<Record<string, string>>;
  readonly result: CompileResult | null;
  readonly readError: string | null;
}

/** `ninefold check`: compile specs and report like a compiler. */
export function check(args: readonly string[], io: Io): number {
  const json = args.includes('--json');
  const unknown = args.find((a) => a.startsWith('-') && a !== '--json');
  const targets = args.filter((a) => !a.startsWith('-'));
  if (unknown !== undefined || targets.length === 0) {
    io.stderr.write(
      `${unknown !== undefined ? `Unknown option ${unknown}.\n\n` : 'No spec given.\n\n'}${CHECK_HELP}`,
    );
    return EXIT.usage;
  }
  const checked = expand(targets, io).map((file) => checkFile(file, io));
  if (json) {
    const report = checked.map((c) => ({
      file: c.file,
      ok: c.result?.ok ?? false,
      error: c.readError,
      diagnostics: c.result?.diagnostics ?? [],
      summary: c.result?.ok ? c.result.summary : null,
    }));
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const c = palette(io.stdout, io.env);
    for (const item of checked) {
      if (item.readError !== null) {
        io.stdout.write(`${c.red('✗')} ${c.bold(item.file)}  ${item.readError}\n`);
        continue;
      }
      for (const d of item.result!.diagnostics)
        io.stdout.write(
          `${formatDiagnostic(d, d.file === item.file ? item.source : (item.translations?.[d.file] ?? ''), c)}\n`,
        );
      io.stdout.write(formatSummary(item.file, item.result!, c));
    }
    const errors = checked.reduce(
      (n, x) => n + (x.result?.diagnostics.filter((d) => d.severity === 'error').length ?? 0),
      0,
    );
    const failed = checked.filter((x) => x.result?.ok !== true).length;
    io.stdout.write(
      `\n${checked.length} ${checked.length === 1 ? 'spec' : 'specs'} checked${failed > 0 ? `, ${failed} with problems (${errors} ${errors === 1 ? 'error' : 'errors'})` : ', all valid'}.\n`,
    );
  }
  if (checked.some((x) => x.readError !== null)) return EXIT.usage;
  return checked.every((x) => x.result?.ok === true) ? EXIT.ok : EXIT.errors;
}

function expand(targets: readonly string[], io: Io): string[] {
  const files: string[] = [];
  for (const target of targets) {
    const path = resolve(io.cwd, target);
    let isDir = false;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      // reported when read
    }
    if (!isDir) {
      // `check examples/*`: a translation named beside its spec is read with the spec
      const siblings = targets
        .filter((t) => dirname(resolve(io.cwd, t)) === dirname(path))
        .map((t) => basename(t));
      if (!isTranslationFile(basename(target), siblings)) files.push(target);
    } else {
      const names = readdirSync(path).sort();
      for (const name of names) {
        // a spec's translation (`claims.fr-FR.yaml` beside `claims.md`) is read with it, not as a spec
        if (isTranslationFile(name, names)) continue;
        if (SPEC_FILE.test(name) && statSync(join(path, name)).isFile())
          files.push(relative(io.cwd, join(path, name)) || name);
      }
    }
  }
  return files;
}

function checkFile(file: string, io: Io): Checked {
  let bytes: Buffer;
  try {
    const path = resolve(io.cwd, file);
    const size = statSync(path).size;
    // never read more than the compiler accepts: one byte over is enough for its size diagnostic
    bytes = size > LIMITS.maxBytes ? readPrefix(path, LIMITS.maxBytes + 1) : readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder'
          : code === 'EACCES'
            ? 'permission denied'
            : 'cannot be read';
    const near = code === 'ENOENT' ? nearestSpec(io.cwd, file) : null;
    const hint = near === null ? '' : ` — did you mean ${near}?`;
    return { file, source: '', result: null, readError: `cannot read ${file}: ${reason}${hint}` };
  }
  const translations = readSpecTranslations(resolve(io.cwd, file));
  const shown = Object.fromEntries(
    Object.entries(translations).map(([path, text]) => [relativeTo(io.cwd, file, path), text]),
  );
  const result = compile(bytes, { file, translations: shown });
  return {
    file,
    translations: shown,
    source: result.ok || !result.diagnostics.some((d) => d.code === 'NF001') ? bytes.toString('utf8') : '',
    result,
    readError: null,
  };
}

/** A translation's path written as the spec's is: relative when the spec was named relatively. */
function relativeTo(cwd: string, specFile: string, path: string): string {
  return isAbsolute(specFile) ? path : relative(cwd, path);
}

function readPrefix(path: string, length: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, 0);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
