/**
 * `ninefold backup`: one archive of a product's data and files (decision 0052, `docs/backups.md`).
 * On SQLite, a consistent snapshot of the database and every file it names; on PostgreSQL
 * (DATABASE_URL), the files only, the database being `pg_dump`'s, as it says.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readSpecTranslations } from '../spec-translations.js';
import { compile } from '@ninefold/language';
import { openFileStore } from '@ninefold/server';
import { makeBackup } from '../backup/make-backup.js';
import { SQLITE_FILE } from '../backup/restore-backup.js';
import { formatBytes } from '../backup/sizes.js';
import { EXIT, type Io } from '../io.js';

export const BACKUP_HELP = `Usage: ninefold backup <spec> --out <file.tar.gz> [--data <folder>]

Writes one archive (a gzipped tar) of the product's data: a consistent snapshot of the SQLite
database, taken while the server may be running, and every file that snapshot names, from the data
folder's files/ or from the S3 storage of STORAGE_URL; and a manifest with the SHA-256 of each.
\`ninefold restore\` puts it back.

With DATABASE_URL (PostgreSQL) the archive holds the files only: back the database up with pg_dump
first, then run this (docs/backups.md has the commands and why that order is safe).

Options:
  --out <file>      the archive to write (it must not exist yet)
  --data <folder>   where the SQLite database and the files are (default ./data)
`;

/** `ninefold backup`. */
export async function backup(args: readonly string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { out: { type: 'string' }, data: { type: 'string' } },
    });
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${BACKUP_HELP}`);
    return EXIT.usage;
  }
  const [spec, ...extra] = parsed.positionals;
  if (spec === undefined || extra.length > 0 || parsed.values.out === undefined) {
    io.stderr.write(`Give one spec and the archive to write (--out).\n\n${BACKUP_HELP}`);
    return EXIT.usage;
  }
  const out = resolve(io.cwd, parsed.values.out);
  if (existsSync(out)) {
    io.stderr.write(`Could not back up: ${out} exists already; give a new file to --out.\n`);
    return EXIT.errors;
  }
  if (!existsSync(dirname(out))) {
    io.stderr.write(`Could not back up: the folder ${dirname(out)} does not exist.\n`);
    return EXIT.errors;
  }
  const specPath = resolve(io.cwd, spec);
  let text: string;
  try {
    text = await readFile(specPath, 'utf8');
  } catch {
    io.stderr.write(`Cannot read the spec ${spec}.\n`);
    return EXIT.errors;
  }
  const compiled = compile(text, { file: spec, translations: readSpecTranslations(specPath) });
  if (!compiled.ok) {
    io.stderr.write(`The spec has errors; run \`ninefold check ${spec}\` for details.\n`);
    return EXIT.errors;
  }
  const env = io.env ?? process.env;
  const dataDir = resolve(io.cwd, parsed.values.data ?? 'data');
  const url = env['DATABASE_URL'] ?? '';
  const sqlite = join(dataDir, SQLITE_FILE);
  if (url === '' && !existsSync(sqlite)) {
    io.stderr.write(`Could not back up: there is no database at ${sqlite} (--data names the folder).\n`);
    return EXIT.errors;
  }
  try {
    const files = openFileStore(env, dataDir);
    const manifest = await makeBackup({
      productName: compiled.model.product.name,
      specFile: specPath,
      database: url === '' ? { sqlite } : { postgres: url },
      files,
      out,
    });
    const { files: count, bytes, missingFiles } = manifest.counts;
    const what = manifest.database === 'sqlite' ? 'the database and ' : '';
    io.stdout.write(
      `Backed up ${what}${count} file${count === 1 ? '' : 's'} from ${files.description} (${formatBytes(bytes)}) to ${out}.\n`,
    );
    if (manifest.database === 'postgresql')
      io.stdout.write(
        'The database (PostgreSQL) is not in this archive: back it up with pg_dump, before this command (docs/backups.md).\n',
      );
    if (missingFiles > 0)
      io.stdout.write(
        `${missingFiles} file${missingFiles === 1 ? '' : 's'} the database names had been removed from the store meanwhile (detached after the snapshot); the manifest lists them under missingFiles.\n`,
      );
    return EXIT.ok;
  } catch (error) {
    io.stderr.write(`Could not back up: ${(error as Error).message}\n`);
    return EXIT.errors;
  }
}
