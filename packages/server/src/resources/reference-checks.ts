/**
 * Reference checks of a write: every ref the input sets must point at records that exist and that
 * the caller may read (E_VALIDATION with E_REF_NOT_FOUND for each field that does not).
 */
import { type WireRecord, accessFor, isEmptyValue, toSqlFilter } from '@ninefold/engine';
import { sql } from 'kysely';
import { ApiError, type FieldIssue } from '../http/errors.js';
import { listTableOf } from '../schema/names.js';
import { type Caller } from './caller.js';
import { entityTable } from './records.js';
import { type EntityResource } from './resource.js';
import { engineFilter } from './sql.js';

/**
 * Throws E_VALIDATION when a ref of `input` names a record that is missing or not the caller's to read.
 *
 * @example await checkRefs(resource, input, caller);
 */
export async function checkRefs(resource: EntityResource, input: WireRecord, caller: Caller): Promise<void> {
  const { model, info } = resource;
  const issues: FieldIssue[] = [];
  for (const [name, value] of Object.entries(input)) {
    const field = info.entity.fields[name];
    if (field === undefined || field.type !== 'ref' || field.to === null) continue;
    if (isEmptyValue(field, value)) continue; // no value (null, "", blank text): nothing to point at
    const ids = [...new Set((Array.isArray(value) ? value : [value]).map(String))];
    if (ids.length === 0) continue;
    const target = model.entities[field.to];
    const access = target === undefined ? false : accessFor(model, caller.user, 'read', target.name);
    let found = 0;
    if (target !== undefined && access !== false) {
      const filter = engineFilter(
        toSqlFilter(model, target.name, access, {
          user: caller.user,
          now: caller.now,
          dialect: resource.database.dialect,
          listTable: listTableOf(model),
        }),
      );
      const rows = await sql<{ id: string }>`select ${sql.ref('id')} from ${sql.table(
        entityTable(model, target).table,
      )} where ${sql.ref('id')} in (${sql.join(ids.map((id) => sql.val(id)))}) and (${filter})`.execute(
        resource.db,
      );
      found = rows.rows.length;
    }
    if (found !== ids.length) {
      issues.push({ field: name, code: 'E_REF_NOT_FOUND', params: { field: field.label } });
    }
  }
  if (issues.length > 0) throw new ApiError('E_VALIDATION', {}, { errors: issues });
}
