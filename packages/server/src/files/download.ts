/**
 * `GET <basePath>/files/<id>` (decision 0050): the bytes of a file the caller may read
 * (`read-access.ts`; anyone else, like an unknown id, gets 404), or of its variant (`?w=320`,
 * `variants.ts`), streamed from the store. The bytes under a store key never change, so the key is their
 * ETag (`If-None-Match` → 304) and a private cache may keep it; a single `Range` is answered 206, one
 * that holds none of the bytes `416 E_RANGE_NOT_SATISFIABLE` (a problem, as every refusal is). Only
 * what a browser shows harmlessly is `inline`; everything else is an attachment, sandboxed by CSP
 * should a browser open it anyway. `?download=1` makes any file an attachment.
 */
import { IMAGE_WIDTHS, type ImageWidth, type Model } from '@ninefold/model';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { requireUserContext } from '../auth/request-auth.js';
import { type Database } from '../db/open.js';
import { ApiError } from '../http/errors.js';
import { contentDisposition } from './names.js';
import { type FileReadAccess } from './read-access.js';
import { findFile } from './rows.js';
import { type ByteRange, type FileStore } from './store.js';
import { type ImageVariants } from './variants.js';

/** What the download route needs. */
export interface DownloadContext {
  readonly model: Model;
  readonly database: Database;
  readonly files: FileStore;
  readonly access: FileReadAccess;
  readonly variants: ImageVariants;
}

/** How long a browser may keep a file it was given (its bytes never change; access may). */
export const FILE_MAX_AGE_SECONDS = 3600;

/** What is sent: the bytes under `key` (which never change: the ETag), of `size`, with their type. */
interface Sent {
  readonly key: string;
  readonly size: number;
  readonly type: string;
  readonly name: string;
}

const notFound = () => new ApiError('E_NOT_FOUND', { entity: 'file' });

/** 416 E_RANGE_NOT_SATISFIABLE, with the Content-Range that RFC 9110 asks of it: the file's size. */
const rangeNotSatisfiable = (size: number) =>
  new ApiError('E_RANGE_NOT_SATISFIABLE', { size }, { headers: { 'content-range': `bytes */${size}` } });

/**
 * The download route's handler.
 *
 * @example app.get(`${path}/:id`, downloadRoute({ model, database, files, access, variants }));
 */
export function downloadRoute(context: DownloadContext) {
  const { database, files, access, variants } = context;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    requireUserContext(request);
    const query = request.query as Record<string, unknown>;
    const width = widthOf(query['w']);
    const file = await findFile(database.db, (request.params as { id: string }).id);
    if (file === null || !(await access.mayRead(request, file))) throw notFound();
    let sent: Sent = { ...file, key: file.id };
    if (width !== null) {
      if (!file.type.startsWith('image/') || file.type === 'image/svg+xml') {
        throw new ApiError('E_INVALID_QUERY', { reason: '`w` is for images other than SVG' });
      }
      const variant = await variants.variant(file, width);
      sent = { ...variant, type: 'image/webp', name: `${file.name.replace(/\.[^./\\]*$/, '')}.webp` };
    }
    return sendBytes(request, reply, files, sent, query['download'] === '1');
  };
}

/** The `w` parameter: absent, or one of `IMAGE_WIDTHS` (E_INVALID_QUERY otherwise). */
function widthOf(raw: unknown): ImageWidth | null {
  if (raw === undefined) return null;
  const width = IMAGE_WIDTHS.find((w) => String(w) === raw);
  if (width === undefined) {
    throw new ApiError('E_INVALID_QUERY', { reason: `\`w\` must be one of ${IMAGE_WIDTHS.join(', ')}` });
  }
  return width;
}

async function sendBytes(
  request: FastifyRequest,
  reply: FastifyReply,
  files: FileStore,
  sent: Sent,
  download: boolean,
): Promise<FastifyReply> {
  const etag = `"${sent.key}"`;
  const current = matchesNoneOf(request.headers['if-none-match'], etag);
  // a copy that is current wins over a range (RFC 9110); a range of none of the bytes is a problem
  // thrown before the bytes' headers, so it is not cached for an hour nor saved under the file's name
  const range = current ? null : requestedRange(request, etag, sent.size);
  if (range === 'unsatisfiable') throw rangeNotSatisfiable(sent.size);
  const inline = !download && showsInline(sent.type);
  reply
    .header('etag', etag)
    .header('cache-control', `private, max-age=${FILE_MAX_AGE_SECONDS}`)
    .header('accept-ranges', 'bytes')
    .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', sent.name));
  if (!showsInline(sent.type)) reply.header('content-security-policy', 'sandbox');
  if (current) return reply.code(304).send();
  const bytes = await files.get(sent.key, range ?? undefined);
  if (bytes === null) throw notFound();
  reply.type(mediaType(sent.type));
  if (range === null) {
    return reply.code(200).header('content-length', sent.size).send(bytes);
  }
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${sent.size}`)
    .header('content-length', range.end - range.start + 1)
    .send(bytes);
}

/** Images (but SVG, which runs scripts), PDF and plain text: what a browser shows without harm. */
function showsInline(type: string): boolean {
  return (
    (type.startsWith('image/') && type !== 'image/svg+xml') ||
    type === 'application/pdf' ||
    type === 'text/plain'
  );
}

/** The Content-Type: text was sniffed as UTF-8, and says so. */
function mediaType(type: string): string {
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type;
}

/** Whether `If-None-Match` names the ETag (or `*`): the browser's copy is current. */
function matchesNoneOf(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/**
 * The single range asked for, resolved against the size; null for the whole file (no `Range`, one
 * that is not a single byte range, or an `If-Range` that names other bytes).
 */
function requestedRange(
  request: FastifyRequest,
  etag: string,
  size: number,
): ByteRange | null | 'unsatisfiable' {
  const header = request.headers.range;
  if (header === undefined) return null;
  const ifRange = request.headers['if-range'];
  if (ifRange !== undefined && ifRange !== etag) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}
