/**
 * `POST <basePath>/files` (decision 0050): one multipart part named `file`, streamed through the
 * meter (`intake.ts`) into the store under a new id, then its row inserted and its expiry
 * scheduled in one transaction; the answer is its `FileInfo`. Whatever fails (a refused type, too
 * many bytes, a second file, a client gone halfway, the database), nothing is left: not in the
 * store, not in its temporary directory, not in the table.
 */
import { type FileInfo, type Model, UPLOAD_PART } from '@ninefold/model';
import { type MultipartFile } from '@fastify/multipart';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { pipeline } from 'node:stream';
import { requireUserContext } from '../auth/request-auth.js';
import { type Database } from '../db/open.js';
import { ApiError } from '../http/errors.js';
import { newId } from '../ids.js';
import { UploadMeter } from './intake.js';
import { storedFileName } from './names.js';
import { recordUpload } from './rows.js';
import { type FileStore } from './store.js';
import { type UploadScope, uploadScope } from './upload-scope.js';

/** What the upload route needs. */
export interface UploadContext {
  readonly model: Model;
  readonly database: Database;
  readonly now: () => Date;
  readonly files: FileStore;
}

/** The bounds of multipart parsing besides the file's own: a form's few small fields at most. */
const PART_LIMITS = { files: 1, fields: 16, fieldSize: 4096, parts: 32, headerPairs: 64 } as const;

const ONE_FILE = `send one file, in a multipart/form-data part named "${UPLOAD_PART}"`;

/** The scope of each request, decided before its body is read. */
const scopes = new WeakMap<FastifyRequest, UploadScope>();

/**
 * The preParsing hook that decides, before the body is read, who may upload and within which bounds: 401 for
 * a guest, 403 for a user who may write no file field (or not the one named).
 *
 * @example app.post(path, { preParsing: decideUploadScope(model) }, uploadRoute(context));
 */
export function decideUploadScope(model: Model) {
  return async (request: FastifyRequest): Promise<void> => {
    const user = requireUserContext(request);
    scopes.set(request, uploadScope(model, user, request.query as Record<string, unknown>));
  };
}

/**
 * The upload route's handler.
 *
 * @example app.post(path, { preParsing: decideUploadScope(model) }, uploadRoute(context));
 */
export function uploadRoute(context: UploadContext) {
  const { database, files, now } = context;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FileInfo> => {
    const user = requireUserContext(request);
    const scope = scopes.get(request);
    if (scope === undefined) throw new Error('the upload scope was not decided');
    if (!request.isMultipart()) {
      // the body was left unread: not worth reading now
      reply.header('connection', 'close');
      throw new ApiError('E_BAD_REQUEST', { reason: ONE_FILE });
    }
    let stored: FileInfo | null = null;
    try {
      const parts = request.parts({
        limits: { ...PART_LIMITS, fileSize: scope.limit + 1 },
        // the name with its path as the browser sent it: a name is data, never used as a path
        preservePath: true,
      });
      for await (const part of parts) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== UPLOAD_PART) {
          part.file.resume();
          throw new ApiError('E_BAD_REQUEST', { reason: ONE_FILE });
        }
        stored = await storePart(files, part, scope);
      }
    } catch (error) {
      // the rest of the body is not worth reading
      reply.header('connection', 'close');
      if (stored !== null) await files.delete(stored.id);
      throw uploadProblem(error);
    }
    if (stored === null) throw new ApiError('E_BAD_REQUEST', { reason: ONE_FILE });
    const file = stored;
    await recordUpload(database.db, files, file, user.id, now());
    reply.code(201);
    return { id: file.id, name: file.name, size: file.size, type: file.type };
  };
}

/** Streams one file part through the meter into the store under a new id. */
async function storePart(files: FileStore, part: MultipartFile, scope: UploadScope): Promise<FileInfo> {
  const id = newId();
  const name = storedFileName(part.filename);
  const meter = new UploadMeter(scope, name);
  // an error on either side (the meter's refusal, the client gone) destroys both, and the store's put
  // rejects and leaves nothing
  await files.put(
    id,
    pipeline(part.file, meter, () => undefined),
  );
  // busboy stops at the limit (one byte over it) without an error: the meter saw that byte
  return { id, name, ...meter.measured() };
}

/** A multipart parser's refusal as a catalogue problem; an ApiError as it is. */
function uploadProblem(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FST_FILES_LIMIT':
      return new ApiError('E_BAD_REQUEST', { reason: ONE_FILE });
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ApiError('E_BAD_REQUEST', { reason: 'the form has more parts than an upload needs' });
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new ApiError('E_BAD_REQUEST', { reason: 'a field of the form cannot be read' });
  }
  if (error instanceof Error && /multipart|boundary|form|premature|terminated|aborted/i.test(error.message)) {
    return new ApiError('E_BAD_REQUEST', { reason: 'the multipart body is malformed or ended early' });
  }
  return error;
}
