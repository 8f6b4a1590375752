/**
 * Which record field holds which file (decisions 0050, 0054). A write names a file by its id (or
 * the `FileInfo` it read, whose `id` alone counts); before the engine checks the write, each id is
 * resolved through `ninefold_files` into the `FileInfo` the upload answered, so the field's
 * `accept` and `maxSize` and the spec's rules see the file's real name, size and sniffed type. A
 * write may name only a file its own user uploaded that nobody holds yet, or one this record's
 * same field already holds; anything else is `E_FILE_NOT_FOUND`, so knowing an id never lets anyone
 * read a file by pointing a record of their own at it.
 *
 * In the write's transaction, the files a record's fields newly hold are attached to it, and the
 * files a change replaced or removed, or a deleted record held, lose their row and have the
 * removal of their bytes enqueued (`lifecycle.ts`): a write that rolls back attaches and removes
 * nothing.
 */
import { type FieldError, type WireRecord } from '@ninefold/engine';
import { type Entity, type Field, type FileInfo, type Value, isFileInfo } from '@ninefold/model';
import { type Kysely, type Transaction } from 'kysely';
import { Readable } from 'node:stream';
import { ApiError } from '../http/errors.js';
import { newId } from '../ids.js';
import { TABLES } from '../schema/names.js';
import { enqueueFileRemoval } from './lifecycle.js';
import { recordUpload } from './rows.js';
import { type FileStore } from './store.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own table, outside the spec's schema
type Db = Transaction<any> | Kysely<any>;

/** The record a write is to: its entity, and its id (null for a record being created). */
export interface FileHolder {
  readonly entity: Entity;
  readonly recordId: string | null;
}

/** A write's input with its file ids resolved, or the fields whose ids it may not name. */
export type ResolvedFiles =
  { readonly ok: true; readonly input: WireRecord } | { readonly ok: false; readonly errors: FieldError[] };

/** A row of `ninefold_files`, as far as holding goes. */
interface FileRow {
  readonly id: string;
  readonly name: string;
  readonly size: number | string;
  readonly type: string;
  readonly uploaded_by: string;
  readonly entity: string | null;
  readonly record_id: string | null;
  readonly field: string | null;
}

/**
 * Whether a field holds files (a `file` or an `image`, one or `many`).
 *
 * @example isFileField({ type: 'image' }) // true
 */
export function isFileField(field: Pick<Field, 'type'>): boolean {
  return field.type === 'file' || field.type === 'image';
}

/**
 * The input with every file field's ids replaced by the `FileInfo` of `ninefold_files`; a value
 * that names no id (a number, an object without an `id`) is left for the engine to refuse as
 * E_TYPE, and an empty one as it is.
 *
 * @example const resolved = await resolveFiles(db, { entity, recordId: null }, input, user.id);
 */
export async function resolveFiles(
  db: Db,
  holder: FileHolder,
  input: WireRecord,
  userId: string,
): Promise<ResolvedFiles> {
  const named = new Map<string, string[]>();
  for (const field of fileFields(holder.entity)) {
    if (!Object.hasOwn(input, field.name)) continue;
    const ids = idsNamed(field, input[field.name]);
    if (ids !== null && ids.length > 0) named.set(field.name, ids);
  }
  if (named.size === 0) return { ok: true, input };
  const rows = await fileRows(db, [...new Set([...named.values()].flat())]);
  const out: Record<string, Value | undefined> = { ...input };
  const errors: FieldError[] = [];
  // a file is held by one field: the same id in two fields of one write is refused in the second
  const claimed = new Map<string, string>();
  for (const [name, ids] of named) {
    const field = holder.entity.fields[name]!;
    const files: FileInfo[] = [];
    for (const id of ids) {
      const row = rows.get(id);
      const usable =
        row !== undefined && mayHold(row, holder, name, userId) && (claimed.get(id) ?? name) === name;
      if (!usable) {
        errors.push({ code: 'E_FILE_NOT_FOUND', field: name, params: { field: field.label, value: id } });
        break;
      }
      claimed.set(id, name);
      files.push(fileInfoOf(row));
    }
    out[name] = field.many ? (files as unknown as Value) : (files[0] as unknown as Value);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, input: out };
}

/**
 * Attaches the files `after` holds that `before` did not, and removes those it no longer holds,
 * in the write's transaction (`before` null for a create). A file attached by another write since
 * it was resolved fails the write with E_FILE_NOT_FOUND beside its field.
 *
 * @example await holdFiles(tx, entity, old, saved, now);
 */
export async function holdFiles(
  tx: Db,
  entity: Entity,
  before: Readonly<Record<string, Value>> | null,
  after: Readonly<Record<string, Value>>,
  now: Date,
): Promise<void> {
  const recordId = String(after['id']);
  for (const field of fileFields(entity)) {
    const held = heldIds(before?.[field.name]);
    const holds = heldIds(after[field.name]);
    for (const id of holds) {
      if (held.has(id)) continue;
      const result = await tx
        .updateTable(TABLES.files)
        .set({ entity: entity.name, record_id: recordId, field: field.name, attached_at: now.toISOString() })
        .where('id', '=', id)
        .where('record_id', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw fileNotFound(field, id);
    }
    const gone = [...held].filter((id) => !holds.has(id));
    if (gone.length > 0) await removeFiles(tx, recordId, gone, now);
  }
}

/**
 * Removes every file a record held, in the transaction that deletes it (directly or by cascade).
 *
 * @example await releaseFiles(tx, String(old['id']), now);
 */
export async function releaseFiles(tx: Db, recordId: string, now: Date): Promise<void> {
  const rows = (await tx
    .selectFrom(TABLES.files)
    .select('id')
    .where('record_id', '=', recordId)
    .execute()) as { id: string }[];
  if (rows.length > 0)
    await removeFiles(
      tx,
      recordId,
      rows.map((r) => r.id),
      now,
    );
}

/** A file to store as a user's upload: its bytes are in memory (demo data, tests). */
export interface UploadedBytes {
  readonly name: string;
  /** The media type, as sniffing it would find it. */
  readonly type: string;
  readonly bytes: Uint8Array;
}

/**
 * Stores bytes as `uploadedBy`'s unattached upload, as `POST <basePath>/files` does once it has
 * sniffed and counted them: the bytes under a new id in the store, then its row and its expiry in
 * one transaction. Answers its `FileInfo`, for a write to name.
 *
 * @example const file = await storeUpload(db, store, { name: 'r.png', type: 'image/png', bytes }, user.id, now);
 */
export async function storeUpload(
  db: Kysely<any>, // eslint-disable-line @typescript-eslint/no-explicit-any -- the server's own table
  store: FileStore,
  upload: UploadedBytes,
  uploadedBy: string,
  now: Date,
): Promise<FileInfo> {
  const id = newId();
  await store.put(id, Readable.from([Buffer.from(upload.bytes)]));
  const file: FileInfo = { id, name: upload.name, size: upload.bytes.byteLength, type: upload.type };
  await recordUpload(db, store, file, uploadedBy, now);
  return file;
}

/** Deletes the rows of files a record held and enqueues the removal of their bytes. */
async function removeFiles(tx: Db, recordId: string, ids: readonly string[], now: Date): Promise<void> {
  await tx.deleteFrom(TABLES.files).where('record_id', '=', recordId).where('id', 'in', ids).execute();
  for (const id of ids) await enqueueFileRemoval(tx, id, now);
}

/** Whether the write may name the file in this field: its own unattached upload, or already held here. */
function mayHold(row: FileRow, holder: FileHolder, field: string, userId: string): boolean {
  if (row.record_id === null) return row.uploaded_by === userId;
  return (
    holder.recordId !== null &&
    row.record_id === holder.recordId &&
    row.entity === holder.entity.name &&
    row.field === field
  );
}

/** The ids a wire value names (in order, once each), or null when it is empty or names none. */
function idsNamed(field: Field, value: Value | undefined): string[] | null {
  if (value === null || value === undefined || value === '') return null;
  if (!field.many) {
    const id = idOf(value);
    return id === null ? null : [id];
  }
  if (!Array.isArray(value)) return null;
  const ids: string[] = [];
  for (const item of value as readonly Value[]) {
    const id = idOf(item);
    if (id === null) return null;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** A file's id as a write names it: the id itself, or an object whose `id` is one. */
function idOf(value: Value): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as Record<string, Value>)['id'];
  return typeof id === 'string' && id !== '' ? id : null;
}

/** The ids of the files a stored value holds (a `FileInfo` or a list of them). */
function heldIds(value: Value | undefined): Set<string> {
  const items: readonly unknown[] = Array.isArray(value) ? value : [value];
  return new Set(items.filter((item) => isFileInfo(item)).map((file) => (file as FileInfo).id));
}

function fileFields(entity: Entity): Field[] {
  return Object.values(entity.fields).filter(isFileField);
}

async function fileRows(db: Db, ids: readonly string[]): Promise<Map<string, FileRow>> {
  const rows = (await db
    .selectFrom(TABLES.files)
    .select(['id', 'name', 'size', 'type', 'uploaded_by', 'entity', 'record_id', 'field'])
    .where('id', 'in', ids)
    .execute()) as FileRow[];
  return new Map(rows.map((row) => [row.id, row]));
}

function fileInfoOf(row: FileRow): FileInfo {
  return { id: row.id, name: row.name, size: Number(row.size), type: row.type };
}

function fileNotFound(field: Field, id: string): ApiError {
  return new ApiError(
    'E_VALIDATION',
    {},
    { errors: [{ field: field.name, code: 'E_FILE_NOT_FOUND', params: { field: field.label, value: id } }] },
  );
}
