/**
 * A write's file ids, resolved before the engine checks the write (decision 0054): each file
 * field's id (or `{ id }`) becomes the `FileInfo` the upload answered, so `accept`, `maxSize` and
 * the spec's rules (`has(receipt)`, `receipt.size < …`) see the file itself. An id the caller may
 * not name is a 422 E_VALIDATION with E_FILE_NOT_FOUND beside its field.
 */
import { type WireRecord } from '@ninefold/engine';
import { type Value } from '@ninefold/model';
import { resolveFiles } from '../files/holdings.js';
import { type Caller } from './caller.js';
import { writeProblem } from './issues.js';
import { type EntityResource } from './resource.js';

/**
 * The input with its file ids resolved for a write to `record` (null for a create).
 *
 * @example const input = await withFiles(resource, given, old, caller);
 */
export async function withFiles(
  resource: EntityResource,
  input: WireRecord,
  record: Readonly<Record<string, Value>> | null,
  caller: Caller,
): Promise<WireRecord> {
  const holder = { entity: resource.info.entity, recordId: record === null ? null : String(record['id']) };
  const resolved = await resolveFiles(resource.db, holder, input, caller.user.id);
  if (!resolved.ok) throw writeProblem(resource.model, resolved.errors);
  return resolved.input;
}
