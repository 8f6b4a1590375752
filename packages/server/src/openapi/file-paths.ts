/**
 * The OpenAPI description of files (`files/routes.ts`, decision 0050), added to the document by
 * `openApiDocument`: the upload (`POST <basePath>/files`, multipart, one part named `file`) and the
 * download (`GET <basePath>/files/{id}`, the bytes, a range of them, or an image's variant), and
 * the schema of a stored file, `ninefold.FileInfo`.
 */
import { API_PATHS, IMAGE_WIDTHS, type Model, UPLOAD_PART } from '@ninefold/model';
import { apiPath } from '../http/paths.js';
import { type DocumentParts } from './notification-paths.js';
import { type Json } from './operations.js';

/** The name of the schema of a stored file. */
export const FILE_INFO_SCHEMA = 'ninefold.FileInfo';

/**
 * The paths and schemas of files.
 *
 * @example const { paths, schemas } = filePaths(model, { op, signedIn, changing });
 */
export function filePaths(
  model: Model,
  parts: DocumentParts,
): { paths: Record<string, Record<string, Json>>; schemas: Record<string, Json> } {
  const { op, signedIn, changing } = parts;
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const csrf = { $ref: '#/components/parameters/Csrf' };
  const path = apiPath(model, API_PATHS.files);
  const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema });
  const bytesHeaders = {
    ETag: header("The file's id, quoted: a strong validator, as an id's bytes never change."),
    'Cache-Control': header('`private, max-age=…`: only the browser of the reader may keep it.'),
    'Accept-Ranges': header('`bytes`.'),
    'Content-Disposition': header(
      "`inline` (images but SVG, PDF, plain text) or `attachment` (anything else, and with `download=1`), with the name as `filename*=UTF-8''…` and an ASCII fallback.",
    ),
  };
  const bytes = { '*/*': { schema: { type: 'string', format: 'binary' } } };
  const paths: Record<string, Record<string, Json>> = {};
  paths[path] = {
    post: op([...changing, 'E_FORBIDDEN', 'E_FILE_TYPE', 'E_FILE_TOO_LARGE'], {
      operationId: 'uploadFile',
      tags: ['files'],
      summary:
        'Uploads a file, to be named by id in a file or image field of a create or change. Its type is sniffed from its bytes, never taken from its name; it must be one the field accepts (or, with no field named, one some file field you may write accepts), within its maxSize. A file no write holds within 24 hours is removed.',
      parameters: [
        csrf,
        {
          name: 'entity',
          in: 'query',
          required: false,
          description: 'The entity of the field the file is for (with `field`): its bounds decide.',
          schema: { type: 'string' },
        },
        {
          name: 'field',
          in: 'query',
          required: false,
          description: 'The file or image field the file is for (with `entity`).',
          schema: { type: 'string' },
        },
      ],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: [UPLOAD_PART],
              properties: {
                [UPLOAD_PART]: { type: 'string', format: 'binary', description: 'The file; one.' },
              },
            },
          },
        },
      },
      responses: {
        '201': {
          description: 'The file, stored and not yet held by any record.',
          content: { 'application/json': { schema: ref(FILE_INFO_SCHEMA) } },
        },
      },
    }),
  };
  const downloadCodes = [
    ...signedIn,
    'E_NOT_FOUND',
    'E_URI_TOO_LONG',
    'E_INVALID_QUERY',
    'E_FORMAT',
    'E_RANGE_NOT_SATISFIABLE',
  ];
  paths[`${path}/{id}`] = {
    get: op(downloadCodes, {
      operationId: 'downloadFile',
      tags: ['files'],
      summary:
        'The bytes of a file: when the record field that holds it is one you may read, or, until a record holds it, when you uploaded it. Anyone else, like an unknown id, gets E_NOT_FOUND. E_FORMAT: an image whose variant cannot be made.',
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
        {
          name: 'w',
          in: 'query',
          required: false,
          description: 'For an image (not SVG): the variant of this width, as WebP, never enlarged.',
          schema: { type: 'integer', enum: [...IMAGE_WIDTHS] },
        },
        {
          name: 'download',
          in: 'query',
          required: false,
          description: '`1`: sent as an attachment, whatever its type.',
          schema: { type: 'string', enum: ['1'] },
        },
        { name: 'Range', in: 'header', required: false, schema: { type: 'string' } },
        { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
      ],
      responses: {
        '200': {
          description: 'The bytes, of the type sniffed at upload (WebP for a variant).',
          headers: { ...bytesHeaders, 'Content-Length': header('Bytes.', { type: 'integer' }) },
          content: bytes,
        },
        '206': {
          description: 'The single range asked for by `Range`.',
          headers: { ...bytesHeaders, 'Content-Range': header('`bytes <first>-<last>/<size>`.') },
          content: bytes,
        },
        '304': { description: 'Your copy (`If-None-Match`) is current.', headers: bytesHeaders },
        // its body is the problem of E_RANGE_NOT_SATISFIABLE, which `op` adds beside the header
        '416': {
          description: 'The range holds none of the bytes.',
          headers: { 'Content-Range': header('`bytes */<size>`.') },
        },
      },
    }),
  };
  const schemas: Record<string, Json> = {
    [FILE_INFO_SCHEMA]: {
      type: 'object',
      required: ['id', 'name', 'size', 'type'],
      additionalProperties: false,
      properties: {
        id: { type: 'string', description: 'What a file field is written with.' },
        name: { type: 'string', description: 'The name it was uploaded with: data, never a path.' },
        size: { type: 'integer', minimum: 0, description: 'Bytes.' },
        type: { type: 'string', description: 'The media type sniffed from its bytes.' },
      },
    },
  };
  return { paths, schemas };
}
