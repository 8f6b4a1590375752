/**
 * The variants of an image (decision 0050): `GET files/<id>?w=320` answers the image resized to
 * that width (never enlarged), turned upright by its EXIF orientation, stripped of its metadata, as
 * WebP. Made by sharp on the first request and kept in the store as `<id>.w<width>.webp` (removed
 * with the file); requests for one not yet made share its making, in this process. A variant is
 * small (at most `IMAGE_WIDTHS`' largest wide), so it is made in memory, then stored.
 */
import { type ImageWidth } from '@ninefold/model';
import { Readable } from 'node:stream';
import { ApiError } from '../http/errors.js';
import { LruMap } from '../lru-map.js';
import { variantKey } from './keys.js';
import { type FileRow } from './rows.js';
import { type FileStore } from './store.js';

/** A variant in the store: its key (its ETag) and size. */
export interface Variant {
  readonly key: string;
  readonly size: number;
}

/** The variants of one store's images. */
export interface ImageVariants {
  /** The variant of `file` at `width`, made now if it was not yet (E_FORMAT when it cannot be read). */
  variant(file: FileRow, width: ImageWidth): Promise<Variant>;
}

/** How many variants' sizes are remembered, so that a repeat reads the store once. */
const REMEMBERED = 4096;

/**
 * The variants of the images in `files`.
 *
 * @example const { key } = await imageVariants(files).variant(file, 320);
 */
export function imageVariants(files: FileStore): ImageVariants {
  const known = new LruMap<string, Variant>(REMEMBERED);
  const making = new Map<string, Promise<Variant>>();
  const find = async (key: string): Promise<Variant | null> => {
    const bytes = await files.get(key);
    if (bytes === null) return null;
    let size = 0;
    for await (const chunk of bytes as AsyncIterable<Buffer>) size += chunk.length;
    return { key, size };
  };
  const make = async (file: FileRow, width: ImageWidth, key: string): Promise<Variant> => {
    const found = await find(key);
    if (found !== null) return found;
    const source = await files.get(file.id);
    if (source === null) throw new ApiError('E_NOT_FOUND', { entity: 'file' });
    // loaded on the first variant: a server that never makes one never pays for libvips
    const { default: sharp } = await import('sharp');
    const resize = sharp({ failOn: 'error' }).rotate().resize({ width, withoutEnlargement: true }).webp();
    source.once('error', (error) => resize.destroy(error));
    let webp: Buffer;
    try {
      webp = await source.pipe(resize).toBuffer();
    } catch {
      throw unreadable(file);
    }
    await files.put(key, Readable.from([webp]));
    return { key, size: webp.length };
  };
  return {
    async variant(file, width) {
      const key = variantKey(file.id, width);
      const remembered = known.get(key);
      if (remembered !== undefined) return remembered;
      let pending = making.get(key);
      if (pending === undefined) {
        pending = make(file, width, key).finally(() => making.delete(key));
        making.set(key, pending);
      }
      const variant = await pending;
      known.set(key, variant);
      return variant;
    },
  };
}

function unreadable(file: FileRow): ApiError {
  return new ApiError(
    'E_FORMAT',
    { field: file.name, expected: 'an image that can be read' },
    { detail: 'The file’s bytes are not an image this server can resize.' },
  );
}
