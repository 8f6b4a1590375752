/**
 * The file store on S3-compatible storage (decision 0052), with the AWS SDK v3: each key under the
 * bucket's prefix. A put streams the body in parts (`@aws-sdk/lib-storage`'s `Upload`, a few
 * 5 MiB parts in memory at most); when the body fails, the multipart upload is aborted, and its
 * parts were never visible under the key. The credentials come from the environment, never from
 * `STORAGE_URL`.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import { checkFileKey } from './keys.js';
import { type ByteRange, type FileStore } from './store.js';
import { type S3Location, describeS3 } from './storage-url.js';
import { type Env } from '../webhooks/resolve.js';

export interface S3StoreOptions {
  /** How many keys one `ListObjectsV2` page asks for (S3's most, 1000, by default). */
  readonly pageSize?: number;
}

/** The region when neither the URL nor `AWS_REGION` says one (S3-compatible services ignore it). */
const DEFAULT_REGION = 'us-east-1';

/**
 * The store at `location`; `env` gives `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` (and
 * `AWS_SESSION_TOKEN`, `AWS_REGION`), else the SDK looks in its usual places (profile, instance role).
 *
 * @example const files = s3FileStore(parseStorageUrl(process.env.STORAGE_URL!), process.env);
 */
export function s3FileStore(
  location: S3Location,
  env: Env = process.env,
  options: S3StoreOptions = {},
): FileStore {
  const client = new S3Client(clientConfig(location, env));
  const { bucket } = location;
  const objectKey = (key: string): string =>
    location.prefix === '' ? checkFileKey(key) : `${location.prefix}/${checkFileKey(key)}`;
  const listPrefix = location.prefix === '' ? '' : `${location.prefix}/`;
  return {
    description: describeS3(location),
    async put(key, body) {
      const upload = new Upload({ client, params: { Bucket: bucket, Key: objectKey(key), Body: body } });
      // a body that fails ends the upload: its parts are aborted, nothing is under the key
      const failed = new Promise<never>((_, reject) =>
        body.once('error', (error) => {
          void upload.abort();
          reject(error);
        }),
      );
      try {
        await Promise.race([upload.done(), failed]);
      } catch (error) {
        body.destroy();
        throw error;
      }
    },
    async get(key, range?: ByteRange): Promise<Readable | null> {
      try {
        const answer = await client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: objectKey(key),
            ...(range === undefined ? {} : { Range: `bytes=${range.start}-${range.end}` }),
          }),
        );
        return answer.Body as Readable;
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        // a range past the end: no bytes, as on the disk
        if (error instanceof S3ServiceException && error.name === 'InvalidRange') return Readable.from([]);
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },
    async *keys() {
      // paged by the last key seen (`StartAfter`), which S3 lists in order: as S3 does with its
      // continuation tokens, and also on compatible services whose tokens are broken
      let after: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: listPrefix,
            ...(after === undefined ? {} : { StartAfter: after }),
            ...(options.pageSize === undefined ? {} : { MaxKeys: options.pageSize }),
          }),
        );
        const contents = page.Contents ?? [];
        for (const object of contents) {
          const name = object.Key?.slice(listPrefix.length);
          // only this store's keys: not a deeper prefix's objects
          if (name === undefined || name === '' || name.includes('/')) continue;
          // S3 always says when; a service that would not is taken as just written, never swept
          yield { key: name, modifiedAt: object.LastModified ?? new Date() };
        }
        after = page.IsTruncated === true ? contents.at(-1)?.Key : undefined;
      } while (after !== undefined);
    },
    async removeLeftovers() {
      // an interrupted put leaves no object: `Upload` aborts its multipart upload when the body
      // fails, and the parts of a process killed mid-upload are the bucket's lifecycle rule's to
      // abort (docs/deploy.md), not ours: they look like those of a slow upload still going on
      return 0;
    },
  };
}

/** The client's settings: the endpoint and credentials of the environment. */
function clientConfig(location: S3Location, env: Env): S3ClientConfig {
  const accessKeyId = env['AWS_ACCESS_KEY_ID'];
  const secretAccessKey = env['AWS_SECRET_ACCESS_KEY'];
  const sessionToken = env['AWS_SESSION_TOKEN'];
  return {
    region: location.region ?? (env['AWS_REGION'] || DEFAULT_REGION),
    forcePathStyle: location.forcePathStyle,
    ...(location.endpoint === null
      ? {}
      : {
          endpoint: location.endpoint,
          // S3-compatible services do not all know the SDK's newer default checksums
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }),
    ...(accessKeyId && secretAccessKey
      ? { credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } }
      : {}),
  };
}
