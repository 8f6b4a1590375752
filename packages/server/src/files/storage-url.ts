/**
 * `STORAGE_URL`, read once at start (decision 0052): `s3://bucket/optional/prefix` with the
 * settings of an S3-compatible service in its query (`endpoint`, `region`, `forcePathStyle`). The
 * credentials are never in it: they come from `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (or
 * the SDK's other standard sources), so the URL can be logged. Anything else is a `StorageUrlError`
 * whose message says what is wrong without repeating the URL.
 */

/** Where an S3 store keeps its objects. */
export interface S3Location {
  readonly bucket: string;
  /** Prepended to every key with a `/` (`receipts/f1`); empty for the bucket's root. */
  readonly prefix: string;
  /** An S3-compatible service's address (MinIO, R2, s3rver); AWS's own when null. */
  readonly endpoint: string | null;
  readonly region: string | null;
  readonly forcePathStyle: boolean;
}

/** A `STORAGE_URL` that cannot be used: the server does not start. */
export class StorageUrlError extends Error {
  constructor(problem: string) {
    super(`STORAGE_URL ${problem}`);
    this.name = 'StorageUrlError';
  }
}

/** S3's rule for bucket names (lower case, 3 to 63 characters). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** A prefix's segment: what a key may hold. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const SETTINGS = ['endpoint', 'region', 'forcePathStyle'];

/**
 * Reads `STORAGE_URL`.
 *
 * @example parseStorageUrl('s3://receipts/prod?region=eu-west-1') // { bucket: 'receipts', prefix: 'prod', … }
 */
export function parseStorageUrl(text: string): S3Location {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StorageUrlError('is not a URL: write s3://bucket/optional/prefix?endpoint=…&region=…');
  }
  if (url.protocol !== 's3:')
    throw new StorageUrlError(
      `must start with s3:// (not ${url.protocol}//): the only storage it names is S3`,
    );
  if (url.username !== '' || url.password !== '')
    throw new StorageUrlError(
      'must not hold credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead',
    );
  const bucket = url.hostname;
  if (!BUCKET.test(bucket))
    throw new StorageUrlError(
      'names no valid bucket: s3://<bucket>/… with 3 to 63 lower-case letters, digits, dots and hyphens',
    );
  if (url.port !== '')
    throw new StorageUrlError('has a port after the bucket: put the address in ?endpoint=');
  const segments = decodeURIComponent(url.pathname)
    .split('/')
    .filter((s) => s !== '');
  if (segments.some((s) => !SEGMENT.test(s) || s.includes('..')))
    throw new StorageUrlError('has a prefix that is not letters, digits, ".", "-" and "_" between slashes');
  for (const name of url.searchParams.keys())
    if (!SETTINGS.includes(name))
      throw new StorageUrlError(`has an unknown setting "${name}": it takes ${SETTINGS.join(', ')}`);
  return {
    bucket,
    prefix: segments.join('/'),
    endpoint: endpointOf(url.searchParams.get('endpoint')),
    region: url.searchParams.get('region') || null,
    forcePathStyle: booleanOf(url.searchParams.get('forcePathStyle')),
  };
}

function endpointOf(text: string | null): string | null {
  if (text === null || text === '') return null;
  let endpoint: URL;
  try {
    endpoint = new URL(text);
  } catch {
    throw new StorageUrlError('has an endpoint that is not a URL: ?endpoint=https://s3.example.com');
  }
  if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:')
    throw new StorageUrlError('has an endpoint that is not http:// or https://');
  if (endpoint.username !== '' || endpoint.password !== '')
    throw new StorageUrlError(
      'has credentials in its endpoint: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead',
    );
  return endpoint.origin + endpoint.pathname.replace(/\/$/, '');
}

function booleanOf(text: string | null): boolean {
  if (text === null || text === '' || text === 'false') return false;
  if (text === 'true') return true;
  throw new StorageUrlError('has forcePathStyle other than true or false');
}

/**
 * The location as the log shows it: the bucket, the prefix and the endpoint, never a secret.
 *
 * @example describeS3({ bucket: 'receipts', prefix: '', endpoint: null, … }) // 's3://receipts'
 */
export function describeS3(location: S3Location): string {
  const path = location.prefix === '' ? '' : `/${location.prefix}`;
  const at = location.endpoint === null ? '' : ` at ${location.endpoint}`;
  return `s3://${location.bucket}${path}${at}`;
}
