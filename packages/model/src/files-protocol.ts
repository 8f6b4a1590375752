/**
 * The wire types of files and images (issue 18, decision 0050). A file field's value is read as a
 * `FileInfo` (a list of them when `many`) and written as the id `POST <basePath>/files` answered,
 * like a ref. A file's bytes never change: its name, size and type are copied into the record that
 * holds it, so rules and permissions read them (`receipt.size < 2 * 1024 * 1024`) without a join.
 */

/** One stored file, as the upload answers it and as a record's file field holds it. */
export interface FileInfo {
  readonly id: string;
  /** The name it was uploaded with: shown escaped, never used as a path. */
  readonly name: string;
  /** Bytes. */
  readonly size: number;
  /** The media type sniffed from its content (`application/pdf`), never taken from its name. */
  readonly type: string;
}

/**
 * The CEL type of a file inside an expression (decision 0051): a message of `FileInfo`'s members,
 * `size` an int, so `receipt.size < 2 * 1024 * 1024` type-checks and `receipt.mime` does not. The
 * compiler and the engine register it in every environment; a `many` field is a list of it.
 */
export const FILE_CEL_TYPE = 'ninefold.File';
/** The members of `FILE_CEL_TYPE` with their CEL types. */
export const FILE_CEL_FIELDS: Readonly<Record<keyof FileInfo, string>> = {
  id: 'string',
  name: 'string',
  size: 'int',
  type: 'string',
};

/** The multipart part that carries the file in `POST <basePath>/files`. */
export const UPLOAD_PART = 'file';

/** The widths an image's variants are made in (`GET files/<id>?w=320`): no other is made. */
export const IMAGE_WIDTHS = [64, 320, 1280] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** `limits.maxUploadSize` when the spec sets none: 10 MiB. */
export const DEFAULT_MAX_UPLOAD_SIZE = 10 * 1024 * 1024;

/** How long a file no record holds is kept before it is removed: 24 hours. */
export const UNATTACHED_FILE_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Whether a media type is one of `accept`'s (`image/*` takes every `image/…`); a null `accept`
 * takes anything. Parameters and case are ignored.
 *
 * @example fileAccepts(['application/pdf', 'image/*'], 'image/png') // true
 */
export function fileAccepts(accept: readonly string[] | null, type: string): boolean {
  if (accept === null) return true;
  const bare = type.split(';')[0]!.trim().toLowerCase();
  return accept.some((pattern) => {
    const wanted = pattern.trim().toLowerCase();
    return wanted.endsWith('/*') ? bare.startsWith(wanted.slice(0, -1)) : bare === wanted;
  });
}

/**
 * Whether a value read from a file field is a `FileInfo` (and not an id still waiting to be saved).
 */
export function isFileInfo(value: unknown): value is FileInfo {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v['id'] === 'string' &&
    typeof v['name'] === 'string' &&
    typeof v['size'] === 'number' &&
    typeof v['type'] === 'string'
  );
}
