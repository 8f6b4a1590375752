/**
 * `ninefold backup`'s work (decision 0052): one archive with a consistent SQLite snapshot (taken
 * while servers may be writing) and then every file the snapshot's `ninefold_files` names, read
 * from the store (disk or S3) and streamed into the archive, with the manifest last. On PostgreSQL
 * the database is `pg_dump`'s to back up: the archive holds the files the database names when the
 * backup runs (run it right after the dump; `docs/backups.md` says why that order is safe).
 *
 * Files are immutable and never reused, so a file the snapshot names has the same bytes whenever it
 * is read. One detached and removed between the snapshot and its read is missing: it is named in
 * the manifest's `missingFiles`, and said.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  type Database,
  type DatabaseTarget,
  type FileStore,
  TABLES,
  openDatabase,
  snapshotSqlite,
} from '@ninefold/server';
import { type AddEntry, writeArchive } from './archive.js';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupError,
  DATABASE_ENTRY,
  FILES_FOLDER,
  type Manifest,
  type ManifestEntry,
} from './manifest.js';

export interface BackupOptions {
  readonly productName: string;
  readonly specFile: string;
  /** The SQLite file to snapshot, or a PostgreSQL database (the files only, then: `pg_dump`'s). */
  readonly database: { readonly sqlite: string } | { readonly postgres: DatabaseTarget };
  readonly files: FileStore;
  readonly out: string;
  readonly now?: () => Date;
}

/** A stored file as the database names it. */
interface StoredFile {
  readonly id: string;
  readonly size: number;
}

/**
 * Writes the archive and returns its manifest.
 *
 * @example const manifest = await makeBackup({ productName, specFile, database: { sqlite }, files, out });
 */
export async function makeBackup(options: BackupOptions): Promise<Manifest> {
  const now = options.now ?? (() => new Date());
  const scratch = await mkdtemp(join(dirname(options.out), '.ninefold-backup-'));
  try {
    let manifest: Manifest | undefined;
    await writeArchive(options.out, async (add) => {
      const entries: ManifestEntry[] = [];
      let named: StoredFile[];
      if ('sqlite' in options.database) {
        const snapshot = join(scratch, 'ninefold.sqlite');
        await snapshotSqlite(options.database.sqlite, snapshot);
        named = await withDatabase({ sqlite: snapshot }, storedFiles);
        const { size } = await stat(snapshot);
        entries.push(await add(DATABASE_ENTRY, size, createReadStream(snapshot)));
      } else {
        named = await withDatabase(options.database.postgres, storedFiles);
      }
      const missingFiles: string[] = [];
      for (const file of named) {
        const entry = await addFile(add, options.files, file);
        if (entry === null) missingFiles.push(file.id);
        else entries.push(entry);
      }
      manifest = {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        spec: { name: options.productName, file: basename(options.specFile) },
        createdAt: now().toISOString(),
        database: 'sqlite' in options.database ? 'sqlite' : 'postgresql',
        counts: {
          files: named.length - missingFiles.length,
          bytes: entries.reduce((sum, e) => sum + e.size, 0),
          missingFiles: missingFiles.length,
        },
        missingFiles,
        entries,
      };
      return `${JSON.stringify(manifest, null, 2)}\n`;
    });
    return manifest!;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** A file's bytes into the archive, or null when the store no longer has them. */
async function addFile(add: AddEntry, files: FileStore, file: StoredFile): Promise<ManifestEntry | null> {
  const body = await files.get(file.id);
  if (body === null) return null;
  return add(`${FILES_FOLDER}${file.id}`, file.size, body);
}

/** Opens a database, reads from it, closes it. */
async function withDatabase<T>(target: DatabaseTarget, read: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase(target);
  try {
    return await read(database);
  } finally {
    await database.close();
  }
}

/** Every file the database names, in the order of their ids. */
async function storedFiles(database: Database): Promise<StoredFile[]> {
  let rows: Record<string, unknown>[];
  try {
    rows = await database.db.selectFrom(TABLES.files).select(['id', 'size']).orderBy('id').execute();
  } catch {
    throw new BackupError(
      `the database has no table of files (${TABLES.files}): start or migrate it with this version of Ninefold first`,
    );
  }
  return rows.map((row) => ({ id: String(row['id']), size: Number(row['size']) }));
}
