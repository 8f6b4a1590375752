/**
 * `ninefold restore`: puts a `ninefold backup` archive back (decision 0052, `docs/backups.md`). It
 * refuses a data folder (or S3 prefix) that holds anything unless `--force`, and an archive that
 * does not match its manifest in every byte, before writing anything.
 */
import { readdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type FileStore, openFileStore } from '@ninefold/server';
import { BackupError } from '../backup/manifest.js';
import { restoreArchive, verifyArchive } from '../backup/restore-backup.js';
import { formatBytes } from '../backup/sizes.js';
import { EXIT, type Io } from '../io.js';

export const RESTORE_HELP = `Usage: ninefold restore <archive> [--data <folder>] [--force]

Restores an archive of \`ninefold backup\`: first it checks every entry against the archive's
manifest (sizes and SHA-256) and writes nothing if one does not match; then it writes the files, to
the data folder's files/ or to the S3 storage of STORAGE_URL, and the SQLite database last. Stop the
servers of that data folder first.

An archive made on PostgreSQL holds the files only: restore the database with pg_restore
(docs/backups.md), and these files with this command.

Options:
  --data <folder>   where to restore (default ./data)
  --force           restore into a data folder or S3 prefix that already holds something
                    (the database is replaced, files of the same id overwritten)
`;

/** `ninefold restore`. */
export async function restore(args: readonly string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { data: { type: 'string' }, force: { type: 'boolean' } },
    });
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${RESTORE_HELP}`);
    return EXIT.usage;
  }
  const [given, ...extra] = parsed.positionals;
  if (given === undefined || extra.length > 0) {
    io.stderr.write(`Give exactly one archive to restore.\n\n${RESTORE_HELP}`);
    return EXIT.usage;
  }
  const archive = resolve(io.cwd, given);
  const dataDir = resolve(io.cwd, parsed.values.data ?? 'data');
  const env = io.env ?? process.env;
  const postgres = (env['DATABASE_URL'] ?? '') !== '';
  let files: FileStore;
  try {
    files = openFileStore(env, dataDir);
  } catch (error) {
    io.stderr.write(`Could not restore: ${(error as Error).message}\n`);
    return EXIT.errors;
  }
  try {
    if (parsed.values.force !== true) {
      const occupied = await occupant(dataDir, files);
      if (occupied !== null) {
        io.stderr.write(
          `Could not restore: ${occupied} already holds data; restore into an empty one, or give --force to replace it.\n`,
        );
        return EXIT.errors;
      }
    }
    const manifest = await verifyArchive(archive);
    if (manifest.database === 'sqlite' && postgres) {
      io.stderr.write(
        'Could not restore: the archive holds a SQLite database, and DATABASE_URL names PostgreSQL; unset DATABASE_URL to restore it into --data.\n',
      );
      return EXIT.errors;
    }
    await restoreArchive(archive, manifest, {
      dataDir: manifest.database === 'sqlite' ? dataDir : null,
      files,
    });
    const { files: count, bytes } = manifest.counts;
    const what = manifest.database === 'sqlite' ? `the database to ${dataDir} and ` : '';
    io.stdout.write(
      `Restored ${manifest.spec.name} as backed up at ${manifest.createdAt}: ${what}${count} file${count === 1 ? '' : 's'} (${formatBytes(bytes)}) to ${files.description}.\n`,
    );
    if (manifest.database === 'postgresql')
      io.stdout.write('The database is not in this archive: restore it with pg_restore (docs/backups.md).\n');
    return EXIT.ok;
  } catch (error) {
    if (error instanceof BackupError) {
      io.stderr.write(
        `Could not restore: the archive ${archive} cannot be used: ${error.message}. Nothing was written.\n`,
      );
      return EXIT.errors;
    }
    io.stderr.write(`Could not restore: ${(error as Error).message}\n`);
    return EXIT.errors;
  }
}

/** What already holds data: the data folder, the S3 prefix; or null when both are empty. */
async function occupant(dataDir: string, files: FileStore): Promise<string | null> {
  const names = await readdir(dataDir).catch(() => []);
  if (names.length > 0) return `the data folder ${dataDir}`;
  const keys = files.keys()[Symbol.asyncIterator]();
  const first = await keys.next();
  // one key is enough: the listing stops there (the disk's closes its folder)
  await keys.return?.();
  return first.done === true ? null : files.description;
}
