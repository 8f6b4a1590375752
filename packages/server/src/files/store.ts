/**
 * Where the bytes of uploaded files live (decision 0050): the local disk under the data directory
 * by default (`disk-store.ts`), S3-compatible storage when `STORAGE_URL=s3://bucket?endpoint=…` is
 * set (`s3-store.ts`). The server's table of files (`ninefold_files`) says what each key is; the
 * store knows only keys and bytes. Keys are a file's id, or its id and a variant
 * (`<id>.w320.webp`): never a name a user gave.
 */
import { type Readable } from 'node:stream';

/** A key the store holds, and when its bytes were written: how old they are decides a sweep. */
export interface StoredKey {
  readonly key: string;
  /**
   * When the bytes under the key were last written: the disk's mtime (its last byte, just before
   * the rename), S3's `LastModified` (for a multipart upload, when it began: decision 0071).
   */
  readonly modifiedAt: Date;
}

/** The bytes from `start` to `end`, both included (an HTTP range once resolved). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

export interface FileStore {
  /** What the store is, for the log: `disk:/srv/data/files`, `s3://receipts`. */
  readonly description: string;
  /**
   * Writes the stream's bytes under `key`, streaming (never holding the whole file in memory).
   * Resolves once they are durable. If the stream errors or ends early, rejects and leaves nothing
   * under `key`.
   */
  put(key: string, body: Readable): Promise<void>;
  /**
   * The bytes under `key` (or a range of them), or null when there is nothing under it. A stream
   * returned holds a file or a connection open: read it to its end or destroy it.
   */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  /** Removes what is under `key`; nothing under it is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Every key the store holds, with when it was written, in no set order and streamed (never the
   * whole listing in memory): for restores, which want an empty store, and for sweeping orphans.
   */
  keys(): AsyncIterable<StoredKey>;
  /**
   * Removes what writes interrupted before `before` left behind, and says how many: the disk's
   * temporary files (`tmp/*.part` of a process killed mid-upload). A write still going on wrote
   * its last byte after `before`, and is left alone. S3 has none to list (decision 0071).
   */
  removeLeftovers(before: Date): Promise<number>;
}
