/**
 * The file store on the local disk (decision 0050): each key under `<root>/<two characters>/<key>`,
 * so no directory holds more than a few thousand files. A file is written to `<root>/tmp/` first and
 * renamed into place once whole, so a reader never sees half a file and an interrupted upload
 * leaves nothing under its key (and its temporary file is removed).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { type ByteRange, type FileStore } from './store.js';

/** How much a read of a stored file takes at once. */
const READ_CHUNK = 1024 * 1024;

/** A key is an id and maybe a variant: letters, digits, `-`, `_` and `.`, never a path. */
const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]{2,200}$/;

/**
 * The store under `root` (created when missing).
 *
 * @example const files = diskFileStore(join(dataDir, 'files'));
 */
export function diskFileStore(root: string): FileStore {
  const tmp = join(root, 'tmp');
  const pathOf = (key: string): string => {
    if (!KEY.test(key) || key.includes('..')) throw new Error(`not a file key: ${JSON.stringify(key)}`);
    return join(root, key.slice(0, 2), key);
  };
  return {
    description: `disk:${root}`,
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(tmp, { recursive: true });
      const partial = join(tmp, `${randomUUID()}.part`);
      try {
        await pipeline(body, createWriteStream(partial, { flags: 'wx' }));
        await mkdir(join(root, key.slice(0, 2)), { recursive: true });
        await rename(partial, path);
      } catch (e) {
        await rm(partial, { force: true });
        throw e;
      }
    },
    async get(key, range?: ByteRange): Promise<Readable | null> {
      const path = pathOf(key);
      try {
        await stat(path);
      } catch {
        return null;
      }
      // reads of 1 MiB: a large download in a sixteenth of the default's chunks
      const chunks = { highWaterMark: READ_CHUNK };
      return createReadStream(
        path,
        range === undefined ? chunks : { ...chunks, start: range.start, end: range.end },
      );
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async *keys() {
      let shards: string[];
      try {
        shards = await readdir(root);
      } catch {
        return;
      }
      for (const shard of shards) {
        if (shard === 'tmp' || shard.length !== 2) continue;
        for (const name of await readdir(join(root, shard))) yield name;
      }
    },
  };
}
