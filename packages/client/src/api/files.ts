/**
 * Files over the API (decision 0050): an upload answers the `FileInfo` a form then holds as the
 * field's value, and a file's URL reads it — the original, an image's variant at one of the fixed
 * widths, or an attachment to download. Whoever may not read the record holding it gets 404.
 */
import {
  API_PATHS,
  DEFAULT_IMAGE_ACCEPT,
  type FileInfo,
  type ImageWidth,
  UPLOAD_PART,
} from '@ninefold/model';
import { type Http } from './http';

export interface UploadFileOptions {
  /**
   * The entity and field the file is for: the server holds it to that field's `accept` and
   * `maxSize` at once (without them, to those of any file field the user may write).
   */
  readonly entity?: string;
  readonly field?: string;
  readonly signal?: AbortSignal;
  /** Told the bytes sent so far and the total, as they go. */
  readonly onProgress?: (sent: number, total: number) => void;
}

/**
 * Uploads one file for a field: its `FileInfo` once stored, or the server's refusal as an
 * `ApiError` (`E_FILE_TYPE`, `E_FILE_TOO_LARGE`).
 *
 * @example const info = await uploadFile(http, file, { entity: 'Claim', field: 'receipt' });
 */
export function uploadFile(http: Http, file: File, options: UploadFileOptions): Promise<FileInfo> {
  const body = new FormData();
  body.append(UPLOAD_PART, file, file.name);
  return http.upload<FileInfo>(API_PATHS.files, body, {
    query:
      options.entity === undefined || options.field === undefined
        ? {}
        : { entity: options.entity, field: options.field },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
}

/**
 * The URL of a stored file: as it is, an image's WebP variant `width` pixels wide, or (with
 * `download`) as an attachment under its name.
 *
 * @example fileUrl(http, info.id, { width: 320 }) // '/api/files/01J…?w=320'
 */
export function fileUrl(
  http: Pick<Http, 'url'>,
  id: string,
  options: { width?: ImageWidth; download?: boolean } = {},
): string {
  const query: Record<string, string> = {};
  if (options.width !== undefined) query['w'] = String(options.width);
  if (options.download === true) query['download'] = '1';
  return http.url(`${API_PATHS.files}/${encodeURIComponent(id)}`, query);
}

/**
 * Whether a file is an image the server makes variants of (`?w=`), by its sniffed type: the types
 * an image field takes by default. Any other file (an SVG, which is only ever an attachment) is
 * shown by its icon and name.
 *
 * @example isPicture({ type: 'image/png' }) // true
 */
export function isPicture(file: Pick<FileInfo, 'type'>): boolean {
  return DEFAULT_IMAGE_ACCEPT.includes(file.type);
}

/**
 * Whether a file is a PDF, which the server serves inline for a preview.
 *
 * @example isPdf({ type: 'application/pdf' }) // true
 */
export function isPdf(file: Pick<FileInfo, 'type'>): boolean {
  return file.type === 'application/pdf';
}
