/**
 * `ninefold restore`'s work (decision 0052), in two passes over the archive. The first writes
 * nothing: it hashes every entry and holds the archive to its manifest (every entry named, of the
 * named size and SHA-256, nothing else, no path that is not ours). Only then the second pass writes:
 * the files into the store (the data directory's, or the S3 of `STORAGE_URL`), and the database to
 * a temporary name that becomes `ninefold.sqlite` last, so a restore stopped halfway leaves at most
 * files no database names yet.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type FileStore, checkFileKey } from '@ninefold/server';
import { readArchive } from './archive.js';
import {
  BackupError,
  DATABASE_ENTRY,
  FILES_FOLDER,
  MANIFEST_ENTRY,
  type Manifest,
  type ManifestEntry,
  parseManifest,
} from './manifest.js';

/** The most a manifest may be: a million files' entries fit easily. */
const MAX_MANIFEST_BYTES = 512 * 1024 * 1024;

/** The SQLite file a data directory holds (as `ninefold start` opens it). */
export const SQLITE_FILE = 'ninefold.sqlite';

/**
 * The first pass: the manifest, once every entry of the archive has been checked against it;
 * a `BackupError` saying what is wrong otherwise. Writes nothing.
 *
 * @example const manifest = await verifyArchive('backup.tar.gz');
 */
export async function verifyArchive(archive: string): Promise<Manifest> {
  const seen = new Map<string, ManifestEntry>();
  let manifestText: string | undefined;
  await readArchive(archive, async (entry, body) => {
    if (entry.type !== 'File')
      throw new BackupError(`it holds ${entry.path}, which is not a file (${entry.type})`);
    if (seen.has(entry.path) || (entry.path === MANIFEST_ENTRY && manifestText !== undefined))
      throw new BackupError(`it holds ${entry.path} twice`);
    if (entry.path === MANIFEST_ENTRY) {
      if (entry.size > MAX_MANIFEST_BYTES) throw new BackupError('its manifest is too large');
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      manifestText = Buffer.concat(chunks).toString('utf8');
      return;
    }
    checkEntryPath(entry.path);
    seen.set(entry.path, await digest(entry.path, body));
  });
  if (manifestText === undefined)
    throw new BackupError('it has no manifest: it is not a whole Ninefold backup');
  const manifest = parseManifest(manifestText);
  for (const expected of manifest.entries) {
    const found = seen.get(expected.path);
    if (found === undefined) throw new BackupError(`${expected.path} is missing from it`);
    if (found.size !== expected.size || found.sha256 !== expected.sha256)
      throw new BackupError(`${expected.path} does not match its checksum: the archive is damaged`);
    seen.delete(expected.path);
  }
  const extra = [...seen.keys()][0];
  if (extra !== undefined) throw new BackupError(`it holds ${extra}, which its manifest does not name`);
  const hasDatabase = manifest.entries.some((e) => e.path === DATABASE_ENTRY);
  if (hasDatabase !== (manifest.database === 'sqlite'))
    throw new BackupError('its manifest and its database entry disagree');
  return manifest;
}

export interface RestoreTargets {
  /** Where the SQLite database goes (`<data>/ninefold.sqlite`); null to restore the files only. */
  readonly dataDir: string | null;
  readonly files: FileStore;
}

/**
 * The second pass, after `verifyArchive`: writes the files, then the database. Each entry is
 * hashed again on its way (the archive could have changed in between): a mismatch stops it.
 *
 * @example await restoreArchive('backup.tar.gz', manifest, { dataDir, files });
 */
export async function restoreArchive(
  archive: string,
  manifest: Manifest,
  targets: RestoreTargets,
): Promise<void> {
  const expected = new Map(manifest.entries.map((e) => [e.path, e]));
  const staged = targets.dataDir === null ? null : join(targets.dataDir, `.${SQLITE_FILE}.restoring`);
  try {
    await readArchive(archive, async (entry, body) => {
      const wanted = expected.get(entry.path);
      if (wanted === undefined) return void body.resume();
      const checked = checking(wanted);
      if (entry.path === DATABASE_ENTRY) {
        if (staged === null) return void body.resume();
        await mkdir(targets.dataDir!, { recursive: true });
        await pipeline(body, checked, createWriteStream(staged, { flush: true }));
      } else {
        body.once('error', (error) => checked.destroy(error));
        await targets.files.put(entry.path.slice(FILES_FOLDER.length), body.pipe(checked));
      }
    });
    if (staged !== null && manifest.database === 'sqlite') {
      const database = join(targets.dataDir!, SQLITE_FILE);
      // a journal left by the database replaced would be applied to the restored one
      await rm(`${database}-wal`, { force: true });
      await rm(`${database}-shm`, { force: true });
      await rename(staged, database);
    }
  } finally {
    if (staged !== null) await rm(staged, { force: true });
  }
}

/** The entry's bytes, passed on while hashed; the end fails when they are not the manifest's. */
function checking(expected: ManifestEntry): Transform {
  const hash = createHash('sha256');
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      const same = size === expected.size && hash.digest('hex') === expected.sha256;
      done(same ? null : new BackupError(`${expected.path} changed while it was restored`));
    },
  });
}

/** Only the paths a backup writes: the database and `files/<key>`. */
function checkEntryPath(path: string): void {
  if (path === DATABASE_ENTRY) return;
  const key = path.startsWith(FILES_FOLDER) ? path.slice(FILES_FOLDER.length) : null;
  try {
    if (key === null) throw new Error();
    checkFileKey(key);
  } catch {
    throw new BackupError(`it holds ${JSON.stringify(path.slice(0, 200))}, which no backup writes`);
  }
}

async function digest(path: string, body: Readable): Promise<ManifestEntry> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of body) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { path, size, sha256: hash.digest('hex') };
}
