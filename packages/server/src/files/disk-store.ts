/**
 * The file store on the local disk (decision 0050): each key under `<root>/<two characters>/<key>`.
 * Ids are UUIDv7, whose first characters are a time: nearly every file is in one shard, which
 * `keys()` therefore reads as a stream (decision 0071). A file is written to `<root>/tmp/` first,
 * flushed, and renamed into place once whole, so a reader never sees half a file and an interrupted
 * upload leaves nothing under its key (and its temporary file is removed). Only a process killed
 * mid-upload leaves a temporary file behind: `removeLeftovers` takes it once it is old (the sweep,
 * decision 0071).
 */
import { type Dirent, createWriteStream } from 'node:fs';
import { mkdir, open, opendir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { checkFileKey } from './keys.js';
import { type ByteRange, type FileStore } from './store.js';

/** Where temporary files are written: not a shard (a shard's name is two characters). */
const TMP = 'tmp';

/** The ending of a temporary file's name. */
const PART = '.part';

/** How much a read of a stored file takes at once. */
const READ_CHUNK = 1024 * 1024;

/**
 * The store under `root` (created when missing).
 *
 * @example const files = diskFileStore(join(dataDir, 'files'));
 */
export function diskFileStore(root: string): FileStore {
  const tmp = join(root, TMP);
  const pathOf = (key: string): string => join(root, checkFileKey(key).slice(0, 2), key);
  return {
    description: `disk:${root}`,
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(tmp, { recursive: true });
      const partial = join(tmp, `${randomUUID()}${PART}`);
      try {
        // flush: the bytes are on the disk before the rename makes them the key's
        await pipeline(body, createWriteStream(partial, { flags: 'wx', flush: true }));
        await mkdir(join(root, key.slice(0, 2)), { recursive: true });
        await rename(partial, path);
      } catch (e) {
        body.destroy();
        await rm(partial, { force: true });
        throw e;
      }
    },
    async get(key, range?: ByteRange): Promise<Readable | null> {
      const path = pathOf(key);
      // opened before answering: a file removed in between is null, never a stream that fails
      let handle;
      try {
        handle = await open(path, 'r');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
      // reads of 1 MiB: a large download in a sixteenth of the default's chunks
      const chunks = { highWaterMark: READ_CHUNK };
      return handle.createReadStream(
        range === undefined ? chunks : { ...chunks, start: range.start, end: range.end },
      );
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async *keys() {
      for (const shard of await namesIn(root)) {
        if (shard === TMP || shard.length !== 2) continue;
        for await (const entry of entriesOf(join(root, shard))) {
          const modifiedAt = await modifiedAtOf(join(root, shard, entry.name));
          // removed since it was listed: not a key any more
          if (modifiedAt !== null) yield { key: entry.name, modifiedAt };
        }
      }
    },
    async removeLeftovers(before) {
      let removed = 0;
      for await (const entry of entriesOf(tmp)) {
        if (!entry.name.endsWith(PART)) continue;
        const path = join(tmp, entry.name);
        // each write moves the time on: an upload still going on is never this old
        const modifiedAt = await modifiedAtOf(path);
        if (modifiedAt === null || modifiedAt >= before) continue;
        await rm(path, { force: true });
        removed += 1;
      }
      return removed;
    },
  };
}

/** The entries of a directory, read a few at a time; none when it does not exist. */
async function* entriesOf(dir: string): AsyncIterable<Dirent> {
  let handle;
  try {
    handle = await opendir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  // closed by the loop, at its end or when the caller stops early
  for await (const entry of handle) yield entry;
}

/** When a file was last written; null when it is gone (or is not a file). */
async function modifiedAtOf(path: string): Promise<Date | null> {
  try {
    const stats = await stat(path);
    return stats.isFile() ? stats.mtime : null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** The names in a directory; none when it does not exist (yet, or any more). */
async function namesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}
