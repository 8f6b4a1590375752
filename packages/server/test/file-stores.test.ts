/**
 * One contract, two stores (decisions 0050, 0052): the disk store in a temporary directory and the
 * S3 store against s3rver started here behave alike. A put then a get gives the same bytes, a range
 * gives those bytes, a delete removes them, `keys()` lists exactly what is stored (page after page)
 * and when each was written; a body that fails halfway leaves nothing under its key (and no
 * temporary file), and the disk's temporary files of killed uploads go once old; 50 MB pass through
 * streamed; a key that is a path is refused. Then `openFileStore`: which store `STORAGE_URL` selects,
 * and the clear refusal of one that cannot be used.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestS3Server, startS3Server } from '@ninefold/testkit';
import {
  type FileStore,
  type StoredKey,
  FileKeyError,
  StorageUrlError,
  diskFileStore,
  openFileStore,
  parseStorageUrl,
  s3FileStore,
} from '../src/index.js';

const MB = 1024 * 1024;

/** Bytes made on demand, `size` of them in 64 KiB chunks, then maybe an error instead of the end. */
function generated(size: number, options: { failAfter?: number } = {}): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (options.failAfter !== undefined && sent >= options.failAfter) {
        this.destroy(new Error('the client went away'));
        return;
      }
      if (sent >= size) {
        this.push(null);
        return;
      }
      const n = Math.min(64 * 1024, size - sent);
      const chunk = Buffer.alloc(n);
      for (let i = 0; i < n; i += 1) chunk[i] = (sent + i) % 251;
      sent += n;
      this.push(chunk);
    },
  });
}

async function digest(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

async function bytes(stream: Readable | null): Promise<Buffer | null> {
  if (stream === null) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const text = async (stream: Readable | null) => (await bytes(stream))?.toString('utf8') ?? null;

async function allKeys(store: FileStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key } of store.keys()) keys.push(key);
  return keys.sort();
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'ninefold-files-'));

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});

interface Subject {
  /** A new, empty store. */
  make(): FileStore;
  /** Whether the store left a temporary file behind (the disk's `tmp/`). */
  leftovers(store: FileStore): string[];
}

let prefixes = 0;
const subjects: Record<'disk' | 's3', Subject> = {
  disk: {
    make: () => diskFileStore(join(tempDir(), 'files')),
    leftovers: (store) => {
      const tmp = join(store.description.slice('disk:'.length), 'tmp');
      return existsSync(tmp) ? readdirSync(tmp) : [];
    },
  },
  s3: {
    // each store its own prefix of the one bucket; pages of 2 keys, so that paging is exercised
    make: () =>
      s3FileStore(parseStorageUrl(s3.env(`run${(prefixes += 1)}`)['STORAGE_URL']!), s3.env(), {
        pageSize: 2,
      }),
    leftovers: () => [],
  },
};

describe.each(['disk', 's3'] as const)('the %s store', (kind) => {
  const subject = subjects[kind];

  it('gives back what was put, in whole and in ranges, until it is deleted', async () => {
    const store = subject.make();
    await store.put('f_one', Readable.from([Buffer.from('hello, '), Buffer.from('world')]));
    expect(await text(await store.get('f_one'))).toBe('hello, world');
    expect(await text(await store.get('f_one', { start: 7, end: 11 }))).toBe('world');
    expect(await text(await store.get('f_one', { start: 0, end: 1 }))).toBe('he');
    expect(await store.get('f_none')).toBeNull();
    await store.delete('f_one');
    expect(await store.get('f_one')).toBeNull();
    // deleting what is not there is no error
    await store.delete('f_one');
    await store.delete('f_never');
  });

  it('lists every key it holds, the variants too, and no other store’s', async () => {
    const store = subject.make();
    const other = subject.make();
    expect(await allKeys(store)).toEqual([]);
    const keys = ['f_a', 'f_b', 'f_b.w64.webp', 'f_c', 'f_d'];
    for (const key of keys) await store.put(key, Readable.from([Buffer.from(key)]));
    await other.put('f_elsewhere', Readable.from([Buffer.from('x')]));
    expect(await allKeys(store)).toEqual(keys);
    await store.delete('f_b');
    expect(await allKeys(store)).toEqual(['f_a', 'f_b.w64.webp', 'f_c', 'f_d']);
    expect(await allKeys(other)).toEqual(['f_elsewhere']);
  });

  it('says when the bytes under each key were written', async () => {
    const store = subject.make();
    // S3 dates to the second, the disk to its clock's tick
    const before = Math.floor(Date.now() / 1000) * 1000;
    await store.put('f_dated', Readable.from([Buffer.from('x')]));
    const after = Date.now();
    const listed: StoredKey[] = [];
    for await (const entry of store.keys()) listed.push(entry);
    expect(listed.map((entry) => entry.key)).toEqual(['f_dated']);
    const at = listed[0]!.modifiedAt.getTime();
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
  });

  it('leaves nothing under a key when the body fails halfway', async () => {
    const store = subject.make();
    await expect(store.put('f_cut', generated(2 * MB, { failAfter: MB }))).rejects.toThrow(
      'the client went away',
    );
    expect(await store.get('f_cut')).toBeNull();
    expect(await allKeys(store)).toEqual([]);
    expect(subject.leftovers(store)).toEqual([]);
    // nor anything for a sweep to remove, even an hour on
    expect(await store.removeLeftovers(new Date(Date.now() + 3_600_000))).toBe(0);
  });

  it('leaves nothing under a key when the body fails after several parts were sent', async () => {
    const store = subject.make();
    await expect(store.put('f_cut_late', generated(30 * MB, { failAfter: 17 * MB }))).rejects.toThrow(
      'the client went away',
    );
    expect(await store.get('f_cut_late')).toBeNull();
    expect(await allKeys(store)).toEqual([]);
    expect(subject.leftovers(store)).toEqual([]);
  });

  it('streams 50 MB in and out, and reads a range from its middle', async () => {
    const store = subject.make();
    const size = 50 * MB;
    const expected = await digest(generated(size));
    await store.put('f_large', generated(size));
    expect(await digest((await store.get('f_large'))!)).toEqual(expected);
    const start = 30 * MB + 5;
    const middle = await bytes(await store.get('f_large', { start, end: start + 2 }));
    expect([...middle!]).toEqual([0, 1, 2].map((i) => (start + i) % 251));
    expect(subject.leftovers(store)).toEqual([]);
  }, 120_000);

  it('refuses keys that are paths or names, before touching anything', async () => {
    const store = subject.make();
    for (const key of [
      '../x',
      '..',
      'a/../../b',
      'f/../../etc',
      '/etc/passwd',
      'ab',
      '',
      'a b c',
      'f\u0000x',
    ])
      await expect(store.put(key, Readable.from([Buffer.from('x')])), key).rejects.toThrow(FileKeyError);
    await expect(store.get('../x')).rejects.toThrow(FileKeyError);
    await expect(store.delete('../../x')).rejects.toThrow(FileKeyError);
    expect(await allKeys(store)).toEqual([]);
  });
});

describe('the disk store', () => {
  it('removes the temporary files last written before a time, and nothing else', async () => {
    const root = join(tempDir(), 'files');
    const store = diskFileStore(root);
    await store.put('f_kept', Readable.from([Buffer.from('x')]));
    // what a process killed mid-upload leaves, an hour ago and now; and a file that is no upload's
    const tmp = join(root, 'tmp');
    for (const name of ['killed.part', 'writing.part', 'notes.txt']) writeFileSync(join(tmp, name), 'half');
    const hourAgo = new Date(Date.now() - 3_600_000);
    const earlier = new Date(hourAgo.getTime() - 1000);
    utimesSync(join(tmp, 'killed.part'), earlier, earlier);
    utimesSync(join(tmp, 'notes.txt'), earlier, earlier);
    expect(await store.removeLeftovers(hourAgo)).toBe(1);
    expect(readdirSync(tmp).sort()).toEqual(['notes.txt', 'writing.part']);
    expect(await store.removeLeftovers(hourAgo)).toBe(0);
    expect(await allKeys(store)).toEqual(['f_kept']);
    // a store that never wrote has no temporary folder, and nothing to remove
    expect(await diskFileStore(join(tempDir(), 'files')).removeLeftovers(new Date())).toBe(0);
  });

  it('writes nothing outside its root for a refused key', async () => {
    const dir = tempDir();
    const store = diskFileStore(join(dir, 'files'));
    await expect(store.put('../outside', Readable.from([Buffer.from('x')]))).rejects.toThrow(FileKeyError);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('openFileStore', () => {
  it('opens the disk under the data directory without STORAGE_URL', () => {
    const dir = tempDir();
    expect(openFileStore({}, dir).description).toBe(`disk:${join(dir, 'files')}`);
    expect(openFileStore({ STORAGE_URL: '' }, dir).description).toBe(`disk:${join(dir, 'files')}`);
  });

  it('opens S3 with STORAGE_URL, described without credentials, and stores there', async () => {
    const store = openFileStore(s3.env('opened'), tempDir());
    expect(store.description).toBe(`s3://${s3.bucket}/opened at ${s3.endpoint}`);
    expect(store.description).not.toContain('S3RVER');
    await store.put('f_opened', Readable.from([Buffer.from('in the bucket')]));
    const direct = s3FileStore(
      parseStorageUrl(`s3://${s3.bucket}?endpoint=${s3.endpoint}&forcePathStyle=true`),
      s3.env(),
    );
    expect(await allKeys(direct)).toEqual([]);
    expect(await text(await store.get('f_opened'))).toBe('in the bucket');
  });

  it('reads the bucket, the prefix and the settings', () => {
    expect(parseStorageUrl('s3://receipts')).toEqual({
      bucket: 'receipts',
      prefix: '',
      endpoint: null,
      region: null,
      forcePathStyle: false,
    });
    expect(
      parseStorageUrl(
        's3://my.bucket/a/b/?endpoint=https://minio.example.com:9000/&region=eu-west-1&forcePathStyle=true',
      ),
    ).toEqual({
      bucket: 'my.bucket',
      prefix: 'a/b',
      endpoint: 'https://minio.example.com:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
    });
  });

  it.each([
    ['receipts', 'is not a URL'],
    ['https://receipts', 'must start with s3://'],
    ['s3://AKIAKEY:very-secret@receipts', 'must not hold credentials'],
    ['s3://Receipts_Bucket', 'names no valid bucket'],
    ['s3://receipts:9000', 'has a port'],
    ['s3://receipts/a%2F..%2Fb', 'has a prefix'],
    ['s3://receipts/a b', 'has a prefix'],
    ['s3://receipts?endpoint=ftp://x', 'not http:// or https://'],
    ['s3://receipts?endpoint=http://user:very-secret@x', 'has credentials in its endpoint'],
    ['s3://receipts?endpiont=http://x', 'unknown setting "endpiont"'],
    ['s3://receipts?forcePathStyle=yes', 'forcePathStyle other than true or false'],
  ])('refuses STORAGE_URL=%s, saying why and never echoing a secret', (url, problem) => {
    let error: unknown;
    try {
      openFileStore({ STORAGE_URL: url }, tempDir());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StorageUrlError);
    expect((error as Error).message).toContain(problem);
    expect((error as Error).message).not.toContain('very-secret');
  });

  it('refuses half a pair of credentials', () => {
    expect(() => openFileStore({ STORAGE_URL: 's3://receipts', AWS_ACCESS_KEY_ID: 'k' }, tempDir())).toThrow(
      'only one of AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
    );
  });
});
