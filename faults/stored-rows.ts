/**
 * The rows a product stored, read straight from their tables and decoded as the server decodes them
 * (the engine's storage decoders), and validated again by the engine: what the API stored must be
 * what the API would accept.
 */
import { type UserContext, systemField, validateRecord, valueDecoder } from '@ninefold/engine';
import { type Entity, type Model, SYSTEM_FIELDS, type Value } from '@ninefold/model';
import { type Database, tableName } from '@ninefold/server';
import { short } from './fuzz-answers.js';

/** Every stored row of an entity's table, as records. */
export async function storedRows(
  database: Database,
  model: Model,
  entity: Entity,
): Promise<Record<string, Value>[]> {
  const raw = (await database.db.selectFrom(tableName(entity.resource)).selectAll().execute()) as Record<
    string,
    unknown
  >[];
  const stateful = model.states[entity.name] !== undefined;
  return raw.map((row) => {
    const record: Record<string, Value> = {};
    for (const name of SYSTEM_FIELDS) {
      if (name === 'state' && !stateful) continue;
      record[name] = valueDecoder(systemField(name))(row[name]);
    }
    for (const field of Object.values(entity.fields))
      record[field.name] = valueDecoder(field)(row[field.name]);
    return record;
  });
}

/**
 * Every stored row of every entity that the engine would not accept, one line each: validated as an
 * update that changes nothing (`validateRecord` with the row as its own old record, as the user who
 * created it when known): each field's type and constraints, required fields, and the spec's rules
 * that apply to an update; and its state must be one of the entity's, its version a whole number ≥ 1.
 */
export async function invalidStoredRows(
  database: Database,
  model: Model,
  users: ReadonlyMap<string, UserContext>,
  now: Date,
): Promise<{ checked: number; invalid: string[] }> {
  const invalid: string[] = [];
  let checked = 0;
  for (const entity of Object.values(model.entities)) {
    const states = model.states[entity.name];
    for (const row of await storedRows(database, model, entity)) {
      checked += 1;
      const user = users.get(String(row['createdBy'])) ?? null;
      const result = validateRecord(model, entity.name, row, { operation: 'update', old: row, user, now });
      if (!result.ok) invalid.push(`${entity.name} ${short(row)}: ${short(result.errors)}`);
      if (states !== undefined && states.states[String(row['state'])] === undefined) {
        invalid.push(`${entity.name} ${String(row['id'])}: state ${short(row['state'])} is not a state`);
      }
      if (!Number.isInteger(row['version']) || Number(row['version']) < 1) {
        invalid.push(`${entity.name} ${String(row['id'])}: version ${short(row['version'])}`);
      }
    }
  }
  return { checked, invalid };
}
