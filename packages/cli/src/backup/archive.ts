/**
 * Backup archives as streams (decision 0052): a gzipped tar written entry after entry with the
 * `tar` package, each entry's bytes hashed on their way in, so that no file is ever held in memory
 * and the manifest can carry every checksum; and read back entry after entry, each body handed to
 * whoever restores it. An archive is written to a temporary name and renamed when whole: an
 * interrupted backup leaves no archive that looks finished.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Header, Pack, Parser, ReadEntry } from 'tar';
import { BackupError, MANIFEST_ENTRY, type ManifestEntry } from './manifest.js';

/** Adds one entry of `size` bytes read from `body`; resolves with its checksum once written. */
export type AddEntry = (path: string, size: number, body: Readable) => Promise<ManifestEntry>;

/**
 * Writes the archive `out`: `fill` adds the entries one after the other, and what it returns is
 * written last (the manifest). On any failure the partial archive is removed and the error thrown.
 *
 * @example await writeArchive('backup.tar.gz', async (add) => { await add('files/f1', 3, body); return manifestText; });
 */
export async function writeArchive(out: string, fill: (add: AddEntry) => Promise<string>): Promise<void> {
  const partial = `${out}.${randomUUID()}.partial`;
  const pack = new Pack({ gzip: true, portable: true });
  const written = pipeline(pack, createWriteStream(partial, { flags: 'wx', flush: true }));
  // a failure of the file shows when the entries are done; until then it must not go unhandled
  written.catch(() => undefined);
  const mtime = new Date();
  const add: AddEntry = async (path, size, body) => {
    const hash = createHash('sha256');
    let counted = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        counted += chunk.length;
        done(
          counted > size ? new BackupError(`${path} has more than the ${size} bytes expected`) : null,
          chunk,
        );
      },
    });
    const entry = tarEntry(path, size, mtime);
    pack.write(entry);
    await pipeline(body, counter, writable(entry));
    if (counted !== size) throw new BackupError(`${path} has ${counted} bytes, not the ${size} expected`);
    return { path, size, sha256: hash.digest('hex') };
  };
  try {
    const manifest = Buffer.from(await fill(add), 'utf8');
    const entry = tarEntry(MANIFEST_ENTRY, manifest.length, mtime);
    pack.write(entry);
    await pipeline(Readable.from([manifest]), writable(entry));
    pack.end();
    await written;
    await rename(partial, out);
  } catch (error) {
    pack.destroy();
    await written.catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  }
}

/** An entry of the archive to be written: a regular file, no owner, read-write for its owner. */
function tarEntry(path: string, size: number, mtime: Date): ReadEntry {
  // the `tar` package's own entry type, fed from a stream instead of a file on disk
  return new ReadEntry(new Header({ path, size, type: 'File', mode: 0o600, mtime }));
}

/** An entry as the destination of a pipeline: a Minipass stream, which Node's streams pipe into. */
function writable(entry: ReadEntry): NodeJS.WritableStream {
  return entry as unknown as NodeJS.WritableStream;
}

/** One entry as read: its path, size and type (`File`, `Directory`, `SymbolicLink`…). */
export interface ArchiveEntry {
  readonly path: string;
  readonly size: number;
  readonly type: string;
}

/**
 * Reads the archive at `path` entry after entry: `onEntry` must consume the body (or resume it)
 * before the next entry is read. A damaged archive (gzip, tar) or a failing `onEntry` rejects.
 *
 * @example await readArchive('backup.tar.gz', async (entry, body) => void body.resume());
 */
export async function readArchive(
  path: string,
  onEntry: (entry: ArchiveEntry, body: Readable) => Promise<void>,
): Promise<void> {
  const parser = new Parser({ strict: true });
  let failure: unknown;
  let chain = Promise.resolve();
  // once the archive is read to its end (or fails), an entry still short of bytes never gets them:
  // it is ended with an error, so that its reader does not wait forever
  const read: { settled?: BackupError; entry?: ReadEntry } = {};
  const cutShort = (entry: ReadEntry) => {
    if (read.settled !== undefined && entry.remain > 0) entry.destroy(read.settled);
  };
  parser.on('entry', (entry: ReadEntry) => {
    chain = chain.then(async () => {
      if (failure !== undefined) return void entry.resume();
      read.entry = entry;
      cutShort(entry);
      try {
        await onEntry(
          { path: entry.path, size: entry.size ?? 0, type: entry.type },
          Readable.from(entry as unknown as AsyncIterable<Buffer>),
        );
      } catch (error) {
        failure ??= error;
        entry.resume();
        parser.abort(error as Error);
      } finally {
        delete read.entry;
      }
    });
  });
  let readError: BackupError | undefined;
  try {
    await pipeline(createReadStream(path), parser);
  } catch (error) {
    readError = damaged(error);
  }
  read.settled =
    readError ?? new BackupError('it ends in the middle of an entry: it is damaged or cut short');
  if (read.entry !== undefined) cutShort(read.entry);
  await chain;
  if (readError !== undefined) throw failure ?? readError;
  if (failure !== undefined) throw failure;
}

/** A read error of the archive itself, said for a person. */
function damaged(error: unknown): BackupError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new BackupError('there is no such file');
  const reason = error instanceof Error ? error.message : String(error);
  return new BackupError(`it is damaged or not a gzipped tar archive (${reason})`);
}
