/**
 * The file store a server or worker opens at start (decision 0052): S3 when `STORAGE_URL` is set,
 * else the disk under the data directory (`<data dir>/files`). A `STORAGE_URL` that cannot be used
 * is a `StorageUrlError` naming the problem, so the process does not start.
 */
import { join } from 'node:path';
import { diskFileStore } from './disk-store.js';
import { s3FileStore } from './s3-store.js';
import { type FileStore } from './store.js';
import { StorageUrlError, parseStorageUrl } from './storage-url.js';
import { type Env } from '../webhooks/resolve.js';

/**
 * The store `env` selects.
 *
 * @example const files = openFileStore(process.env, resolve('data')); // disk:/…/data/files
 */
export function openFileStore(env: Env, dataDir: string): FileStore {
  const url = env['STORAGE_URL'];
  if (url === undefined || url === '') return diskFileStore(join(dataDir, 'files'));
  const location = parseStorageUrl(url);
  const hasKey = Boolean(env['AWS_ACCESS_KEY_ID']);
  if (hasKey !== Boolean(env['AWS_SECRET_ACCESS_KEY']))
    throw new StorageUrlError(
      'is set with only one of AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: set both, or neither',
    );
  return s3FileStore(location, env);
}
