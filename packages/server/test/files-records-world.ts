/**
 * A running spec with file fields for the tests of records that hold files (decision 0054): its
 * server on a fresh database with a disk file store of its own, signed-in clients whose every
 * answer is checked against the OpenAPI document, uploads (`uploadFile`), and looks at the table of
 * files and the jobs that remove their bytes.
 */
import { type Field, type FileInfo, type Model } from '@ninefold/model';
import { type LightMyRequestResponse } from 'fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import {
  checkedInject,
  CSRF,
  givenUser,
  login,
  specModel,
  type TestDialect,
  type TestServer,
  testServer,
} from '@ninefold/testkit';
import { diskFileStore } from '../src/files/disk-store.js';
import { storeUpload } from '../src/files/holdings.js';
import { FILE_REMOVE_JOB } from '../src/files/lifecycle.js';
import { type FileStore } from '../src/files/store.js';

/** A signed-in client. */
export interface FilesClient {
  readonly id: string;
  request(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
}

export interface FilesWorld {
  readonly server: TestServer;
  readonly model: Model;
  readonly store: FileStore;
  readonly as: Record<string, FilesClient>;
  /** The row of a file in `ninefold_files`, or undefined once it is gone. */
  fileRow(id: string): Promise<FileRow | undefined>;
  /** The files whose bytes a `ninefold.file-remove` job was written for. */
  removalsQueued(): Promise<string[]>;
}

export interface FileRow {
  readonly id: string;
  readonly entity: string | null;
  readonly record_id: string | null;
  readonly field: string | null;
  readonly attached_at: string | null;
}

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

/**
 * A server for `model` with one signed-in client per named user.
 *
 * @example const world = await filesWorld('sqlite', model, { ann: ['employee'] });
 */
export async function filesWorld(
  dialect: TestDialect,
  model: Model,
  users: Record<string, readonly string[]>,
): Promise<FilesWorld> {
  const root = await mkdtemp(join(tmpdir(), 'ninefold-files-'));
  roots.push(root);
  const store = diskFileStore(root);
  const server = await testServer(dialect, model, { files: store });
  const as: Record<string, FilesClient> = {};
  for (const [name, roles] of Object.entries(users)) {
    const user = await givenUser(server, `${name}@example.com`, roles);
    const { cookie } = await login(server.app, `${name}@example.com`);
    if (cookie === undefined) throw new Error(`${name} could not sign in`);
    as[name] = {
      id: user.id,
      request: (method, url, payload, headers = {}) =>
        checkedInject(server.app, model, {
          method,
          url,
          headers: { ...CSRF, cookie, ...headers },
          ...(payload === undefined ? {} : { payload: payload as string | object }),
        }),
    };
  }
  const db = server.database.db;
  return {
    server,
    model,
    store,
    as,
    async fileRow(id) {
      return (await db
        .selectFrom('ninefold_files')
        .select(['id', 'entity', 'record_id', 'field', 'attached_at'])
        .where('id', '=', id)
        .executeTakeFirst()) as FileRow | undefined;
    },
    async removalsQueued() {
      const rows = (await db
        .selectFrom('ninefold_jobs')
        .select('payload')
        .where('kind', '=', FILE_REMOVE_JOB)
        .execute()) as { payload: unknown }[];
      return rows
        .map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as { file: string })
        .map((p) => p.file)
        .sort();
    },
  };
}

/**
 * Uploads a file as `user`, as `POST <basePath>/files` stores one: its bytes in the store, its
 * row unattached, its expiry scheduled. Answers the `FileInfo` the route answers.
 *
 * @example const receipt = await uploadFile(world, 'ann', { name: 'r.pdf', type: 'application/pdf', bytes });
 */
export async function uploadFile(
  world: FilesWorld,
  user: string,
  upload: { readonly name: string; readonly type: string; readonly bytes: Uint8Array },
): Promise<FileInfo> {
  const client = world.as[user];
  if (client === undefined) throw new Error(`no user ${user}`);
  return storeUpload(world.server.database.db, world.store, upload, client.id, world.server.clock.now());
}

/**
 * The model with some file fields' `accept` and `maxSize` set, as the notation's `accept:` and
 * `maxSize:` will compile them.
 *
 * @example withFileLimits(model, 'Claim', 'receipt', { accept: ['application/pdf'], maxSize: 1024 })
 */
export function withFileLimits(
  model: Model,
  entity: string,
  field: string,
  limits: Pick<Field, 'accept' | 'maxSize'>,
): Model {
  const def = model.entities[entity]!;
  const fields = { ...def.fields, [field]: { ...def.fields[field]!, ...limits } };
  return { ...model, entities: { ...model.entities, [entity]: { ...def, fields } } };
}

/** Some bytes of a PDF, as many as asked. */
export function pdfBytes(size = 64): Uint8Array {
  const head = Buffer.from('%PDF-1.4\n');
  return Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 0x20)]);
}

/** Claims with a receipt (one file) and photos (many images), on trips that cascade to them. */
export const RECEIPTS_SPEC = `
product: { name: Receipts }
entities:
  Trip:
    fields:
      name: { type: string, required: true }
  Claim:
    owner: claimant
    fields:
      claimant: { type: ref, to: User, default: user.id, readonly: true }
      title: { type: string, required: true }
      amount: { type: integer, required: true }
      trip: { type: ref, to: Trip, onDelete: cascade }
      receipt: { type: file }
      photos: { type: image, many: true }
states:
  Claim:
    initial: draft
    states: [draft, submitted, archived]
    transitions:
      submit: { from: draft, to: submitted, roles: [employee], require: [receipt] }
      archive: { from: submitted, to: archived, after: 1d, set: { receipt: "null" } }
rules:
  - id: receipt-over-threshold
    entity: Claim
    assert: "amount <= 100 || has(receipt)"
    error: E_RECEIPT_REQUIRED
  - id: receipt-small
    entity: Claim
    assert: "!has(receipt) || receipt.size < 512"
    error: E_RECEIPT_TOO_BIG
    fields: [receipt]
errors:
  E_RECEIPT_REQUIRED: "A receipt is required above 100."
  E_RECEIPT_TOO_BIG: "The receipt must be under 512 bytes."
roles:
  employee:
    Claim: { read: own, create: true, update: own, delete: own }
    Trip: true
  auditor:
    Claim:
      read: all
      fields: { read: [title, amount] }
`;

/**
 * The spec with the receipt held to PDFs and images of at most 1 KiB (`accept`, `maxSize`).
 *
 * @example const model = receiptsModel();
 */
export function receiptsModel(): Model {
  return withFileLimits(specModel(RECEIPTS_SPEC), 'Claim', 'receipt', {
    accept: ['application/pdf', 'image/*'],
    maxSize: 1024,
  });
}
