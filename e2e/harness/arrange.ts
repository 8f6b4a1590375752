/**
 * Arranging data through the API, for any model: records created by a role that may create them,
 * moved along the state machine by the roles that may fire each step — the engine and the server
 * decide who may, never this file. The building blocks are the demo data's (`@ninefold/demo`).
 */
import { type UserContext, accessFor } from '@ninefold/engine';
import { ACTIONS_KEY, type Model, type Transition } from '@ninefold/model';
import { type ApiRecord, creators, generateRecord, pathTo, stepAsAnyone, writableList } from '@ninefold/demo';
import { type Example } from './server';

export { type ApiRecord, writableList } from '@ninefold/demo';

/** The engine's view of a role's demo user, as the server's session reports it. */
export function userContext(example: Example, role: string): Promise<UserContext> {
  return example.demo.userContext(role);
}

export const roles = (model: Model) => Object.keys(model.roles);

export function resourceOf(model: Model, entity: string): string {
  const def = model.entities[entity];
  if (def === undefined) throw new Error(`no entity ${entity}`);
  return def.resource;
}

export async function listRecords(
  example: Example,
  role: string,
  entity: string,
  query = '',
): Promise<ApiRecord[]> {
  const answer = await example.api<{ data: ApiRecord[] }>(
    role,
    'GET',
    `${resourceOf(example.model, entity)}?limit=50${query}`,
  );
  if (answer.status !== 200) return [];
  return answer.body.data;
}

export async function getRecord(
  example: Example,
  role: string,
  entity: string,
  id: string,
): Promise<ApiRecord | null> {
  const answer = await example.api<ApiRecord>(role, 'GET', `${resourceOf(example.model, entity)}/${id}`);
  return answer.status === 200 ? answer.body : null;
}

export async function countRecords(example: Example, role: string, entity: string): Promise<number> {
  const answer = await example.api<{ total: number }>(
    role,
    'GET',
    `${resourceOf(example.model, entity)}?limit=1&total=true`,
  );
  if (answer.status !== 200) throw new Error(`${role}: counting ${entity} answered ${answer.status}`);
  return answer.body.total;
}

/** Ids of records of each entity a field of `entity` refers to, readable by the role (made when none). */
export async function refIdsFor(
  example: Example,
  role: string,
  entity: string,
  depth = 0,
): Promise<Record<string, string[]>> {
  const def = example.model.entities[entity]!;
  const out: Record<string, string[]> = {};
  for (const field of Object.values(def.fields)) {
    if (field.type !== 'ref' || field.to === null || out[field.to] !== undefined) continue;
    let rows = await listRecords(example, role, field.to);
    if (rows.length === 0 && field.required && depth < 3 && field.to !== 'User') {
      await createRecord(example, field.to, { depth: depth + 1 });
      rows = await listRecords(example, role, field.to);
    }
    out[field.to] = rows.map((r) => r.id);
  }
  return out;
}

/**
 * Creates a record over the API as the first role that may (or `as`), with valid generated values.
 *
 * @example const claim = await createRecord(example, 'Claim', { as: 'employee' });
 */
export async function createRecord(
  example: Example,
  entity: string,
  options: { as?: string; depth?: number; parent?: { entity: string; id: string } } = {},
): Promise<{ role: string; record: ApiRecord }> {
  const problems: string[] = [];
  const candidates = options.as !== undefined ? [options.as] : creators(example.model, entity);
  for (const role of candidates) {
    const user = await userContext(example, role);
    if (accessFor(example.model, user, 'create', entity) === false) continue;
    const writable = writableList(example.model, user, entity, 'create', null);
    try {
      const refIds = await refIdsFor(example, role, entity, options.depth ?? 0);
      if (options.parent !== undefined) refIds[options.parent.entity] = [options.parent.id];
      const { input } = generateRecord(example.model, entity, user, { writable, refIds });
      const answer = await example.api<ApiRecord>(role, 'POST', resourceOf(example.model, entity), input);
      if (answer.status === 201 || answer.status === 200) return { role, record: answer.body };
      problems.push(`${role}: ${answer.status} ${JSON.stringify(answer.body)}`);
    } catch (error) {
      problems.push(`${role}: ${(error as Error).message}`);
    }
  }
  throw new Error(`No role could create a ${entity}:\n  ${problems.join('\n  ')}`);
}

/**
 * A record of `entity` the role may read, arranged when it sees none: created by a role that may,
 * then moved into each state in turn until the role can read it (finance reads approved claims).
 */
export async function readableBy(example: Example, role: string, entity: string): Promise<ApiRecord | null> {
  const rows = await listRecords(example, role, entity);
  if (rows.length > 0) return rows[0]!;
  const made = await createRecord(example, entity).catch(() => null);
  if (made === null) return null;
  const direct = await getRecord(example, role, entity, made.record.id);
  if (direct !== null) return direct;
  const machine = example.model.states[entity];
  if (machine === undefined) return null;
  for (const t of Object.values(machine.transitions)) {
    const moved = await recordReadyFor(example, entity, t, null);
    if (moved === null) continue;
    const after = await stepAsAnyone(example.demo, entity, moved, t, roles(example.model));
    const seen = after === null ? null : await getRecord(example, role, entity, after.id);
    if (seen !== null) return seen;
  }
  return null;
}

/**
 * A record of `entity` on which `role` may fire `transition` now, as the server says: created by
 * each role that may create one in turn, then moved along the state machine, each step by `role`
 * when it may fire it, else by the first role that may. Null when no arrangement gets there.
 */
export async function recordReadyFor(
  example: Example,
  entity: string,
  transition: Transition,
  role: string | null,
): Promise<ApiRecord | null> {
  const model = example.model;
  const machine = model.states[entity]!;
  const everyone = roles(model);
  for (const creator of creators(model, entity, role ?? undefined)) {
    let record: ApiRecord;
    try {
      record = (await createRecord(example, entity, { as: creator })).record;
    } catch {
      continue;
    }
    // a child for each child relation: a parent's rules may read their computed values (decision 0045)
    for (const relation of Object.values(model.entities[entity]!.children)) {
      await createRecord(example, relation.entity, { parent: { entity, id: record.id } }).catch(() => null);
    }
    for (const from of transition.from) {
      const path = pathTo(model, entity, record.state ?? machine.initial, from);
      if (path === null) continue;
      let current: ApiRecord | null = record;
      for (const step of path) {
        const actors = role === null ? [creator, ...everyone] : [role, creator, ...everyone];
        const next = await stepAsAnyone(example.demo, entity, current, step, actors);
        if (next === null) {
          current = null;
          break;
        }
        current = next;
      }
      if (current === null) break;
      const mine = await getRecord(example, role ?? creator, entity, current.id);
      if (role === null) {
        for (const actor of everyone) {
          const seen = await getRecord(example, actor, entity, current.id);
          if (seen !== null && (seen[ACTIONS_KEY] ?? []).includes(transition.name)) return seen;
        }
        break;
      }
      if (mine !== null && (mine[ACTIONS_KEY] ?? []).includes(transition.name)) return mine;
      break;
    }
  }
  return null;
}
