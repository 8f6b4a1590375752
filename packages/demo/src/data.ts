/**
 * Demo data: a few records of every entity, made over the product's own API by the demo accounts,
 * so that `ninefold start --demo` opens on a product with something in it. Every record passes
 * the spec's validation and permissions exactly as a person's would — this file decides nothing:
 * it asks the engine for values and the server for what each role may do.
 *
 * Records are made only into a product that has none (the first start on a data folder), and the
 * demo users are given the same value for each of their own references (the same department), so
 * rules such as "a manager reads their department's claims" have something to show.
 */
import { type UserContext, accessFor, writableFields } from '@ninefold/engine';
import {
  ACTIONS_KEY,
  type ApiRecord,
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
  type Entity,
  IF_MATCH_HEADER,
  type Model,
  SESSION_COOKIE,
  type Transition,
  ifMatch,
} from '@ninefold/model';
import { type Database, type FileStore, tableName } from '@ninefold/server';
import { type FastifyInstance } from 'fastify';
import { DEMO_DOMAIN, type DemoAccount } from './accounts.js';
import { type DemoFiles, demoFiles } from './files.js';
import { pathTo } from './paths.js';
import { fillEmptyQueues } from './queues.js';
import { DEMO_SEED, type Wording, generateRecord, timedFields } from './values.js';

/** A record as the API answers it (the wire protocol's). */
export type { ApiRecord };
export { pathTo };

export interface Answer<T> {
  readonly status: number;
  readonly body: T;
}

/** The API as each demo account sees it, through `inject` (no network, every hook and rule applies). */
export interface DemoApi {
  readonly model: Model;
  /** A request as a role's demo account (signed in on first use), or as a guest with null. */
  call<T>(
    role: string | null,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer<T>>;
  /** The engine's view of the role's demo user, as the session reports it (fresh after `forget`). */
  userContext(role: string): Promise<UserContext>;
  forget(): void;
  /** The sample files records may hold; without them, file and image fields stay empty. */
  readonly files?: DemoFiles;
}

export interface DemoDataOptions {
  /** Records made per entity (default 6). */
  readonly perEntity?: number;
  /**
   * The file store of the app (`buildApp({ files })`): with it, a file or image field that needs a
   * value holds an uploaded sample file; without it, such fields stay empty.
   */
  readonly files?: FileStore;
  /** The seed of the values: the same seed makes the same demo (default `ninefold`). */
  readonly seed?: string;
  /**
   * Session cookies by role, filled as the demo accounts sign in: a caller that reads as them
   * afterwards (a test) reuses them rather than sign in again, which the sign-in limit counts.
   */
  readonly sessions?: Map<string, string>;
}

export interface DemoDataReport {
  /**
   * Records made, by entity name (the series, and those made so that every role's list screens
   * show something); empty when the product already had records.
   */
  readonly created: Readonly<Record<string, number>>;
}

const SAMPLE = 'Sample';

/**
 * Makes demo records when the product has none, and returns how many of each entity it made.
 *
 * @example const { created } = await seedDemoData(app, database, model, accounts);
 */
export async function seedDemoData(
  app: FastifyInstance,
  database: Database,
  model: Model,
  accounts: readonly DemoAccount[],
  options: DemoDataOptions = {},
): Promise<DemoDataReport> {
  const created: Record<string, number> = {};
  const entities = Object.values(model.entities).filter((e) => !e.builtin);
  if (await anyRecords(database, entities)) return { created };
  const plain = demoApi(app, model, accounts, options.sessions);
  const api =
    options.files === undefined ? plain : { ...plain, files: await demoFiles(database, options.files) };
  const perEntity = options.perEntity ?? 6;
  const seed = options.seed ?? DEMO_SEED;
  // a parent's states wait for its children: its rules may read their computed values (decision 0045)
  const parents: [string, ApiRecord[]][] = [];
  for (const entity of creationOrder(entities)) {
    const made: ApiRecord[] = [];
    for (let ordinal = 1; ordinal <= perEntity; ordinal++) {
      const record = await createAsSomeone(api, entity.name, demoWording(ordinal, seed));
      if (record === null) break; // no role may create one, or no values satisfy its rules
      made.push(record);
    }
    if (made.length === 0) continue;
    created[entity.name] = made.length;
    await shareWithDemoUsers(database, api, entity.name, made[0]!.id);
    if (Object.keys(entity.children).length > 0) parents.push([entity.name, made]);
    else for (const [k, record] of made.entries()) await spreadOverStates(api, entity.name, record, k, seed);
  }
  // each step reads the record afresh (`stepAsAnyone`): its children changed its values and version
  for (const [entity, made] of parents) {
    for (const [k, record] of made.entries()) await spreadOverStates(api, entity, record, k, seed);
  }
  // then every role's queues: a list screen that shows a role nothing gets records made for it
  await fillEmptyQueues(
    api,
    {
      creators: (entity) => creators(model, entity),
      create: async (entity, role, days) => {
        const ordinal = (created[entity] ?? 0) + 1;
        const record = await createAsRole(api, role, entity, {
          ...demoWording(ordinal, seed),
          ...(days === undefined ? {} : { days }),
        });
        if (record !== null) created[entity] = ordinal;
        return record;
      },
      moveTo: (entity, record, state) => moveTowards(api, entity, record, state, demoWording(1, seed)),
    },
    new Set(Object.keys(created)),
  );
  return { created };
}

/** Signs each demo account in once and calls the API as it. */
export function demoApi(
  app: FastifyInstance,
  model: Model,
  accounts: readonly DemoAccount[],
  /** Session cookies by role, shared with whoever else signs the accounts in (a browser). */
  cookies = new Map<string, string>(),
): DemoApi {
  const base = model.calls.basePath.replace(/\/$/, '');
  let contexts = new Map<string, UserContext>();

  async function signIn(role: string): Promise<string> {
    const account = accounts.find((a) => a.role === role);
    if (account === undefined) throw new Error(`There is no demo account for the role ${role}.`);
    const response = await app.inject({
      method: 'POST',
      url: `${base}/session`,
      headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' },
      payload: JSON.stringify({ email: account.email, password: account.password }),
    });
    const set = response.cookies.find((c) => c.name === SESSION_COOKIE);
    if (response.statusCode !== 200 || set === undefined) {
      throw new Error(`The demo account ${account.email} could not sign in: ${response.statusCode}`);
    }
    const cookie = `${set.name}=${set.value}`;
    cookies.set(role, cookie);
    return cookie;
  }

  const api: DemoApi = {
    model,
    async call<T>(
      role: string | null,
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ): Promise<Answer<T>> {
      const cookie = role === null ? undefined : (cookies.get(role) ?? (await signIn(role)));
      const response = await app.inject({
        method: method as 'GET',
        url: `${base}/${path.replace(/^\//, '')}`,
        headers: {
          [CSRF_HEADER]: CSRF_HEADER_VALUE,
          ...(cookie === undefined ? {} : { cookie }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      const text = response.body;
      let parsed: unknown = text;
      try {
        parsed = text === '' ? null : JSON.parse(text);
      } catch {
        // CSV and other text answers stay text
      }
      return { status: response.statusCode, body: parsed as T };
    },
    async userContext(role) {
      const known = contexts.get(role);
      if (known !== undefined) return known;
      const answer = await api.call<{ user: { context: UserContext } }>(role, 'GET', 'session');
      if (answer.status !== 200) throw new Error(`${role}: GET session answered ${answer.status}`);
      contexts.set(role, answer.body.user.context);
      return answer.body.user.context;
    },
    forget() {
      contexts = new Map();
    },
  };
  return api;
}

/** The roles whose grants allow creating the entity, `prefer` first when it is one of them. */
export function creators(model: Model, entity: string, prefer?: string): string[] {
  const all = Object.keys(model.roles).filter((r) => {
    const access = model.roles[r]?.entities[entity];
    return access !== undefined && access.create !== false;
  });
  return prefer !== undefined && all.includes(prefer) ? [prefer, ...all.filter((r) => r !== prefer)] : all;
}

/** The fields a user may write on the entity for the action, read-only ones left out. */
export function writableList(
  model: Model,
  user: UserContext,
  entity: string,
  action: 'create' | 'update',
  record: ApiRecord | null,
): string[] {
  const def = model.entities[entity]!;
  const allowed = writableFields(model, user, entity, action, record);
  return Object.values(def.fields)
    .filter((f) => !f.readonly && (allowed === null || allowed.includes(f.name)))
    .map((f) => f.name);
}

/** Ids of the records the role may read of each entity the given one refers to. */
export async function refIdsFor(
  api: DemoApi,
  role: string,
  entity: string,
): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const field of Object.values(api.model.entities[entity]!.fields)) {
    if (field.type !== 'ref' || field.to === null || out[field.to] !== undefined) continue;
    const resource = api.model.entities[field.to]?.resource;
    if (resource === undefined) continue;
    const answer = await api.call<{ data: ApiRecord[] }>(role, 'GET', `${resource}?limit=50`);
    out[field.to] = answer.status === 200 ? answer.body.data.map((r) => r.id) : [];
  }
  return out;
}

/**
 * Creates a record over the API as the given role, with generated values the engine accepts.
 * Throws with the server's answer when it is refused.
 */
export async function createAs(
  api: DemoApi,
  role: string,
  entity: string,
  wording?: Wording,
): Promise<ApiRecord> {
  const user = await api.userContext(role);
  const writable = writableList(api.model, user, entity, 'create', null);
  const refIds = await refIdsFor(api, role, entity);
  const owner = api.model.entities[entity]!.owner;
  const forSomeoneElse = wording !== undefined && owner !== null && writable.includes(owner);
  // a demo record whose owner its creator may name is made for another demo user (a desk's loan)
  if (forSomeoneElse) refIds['User'] = (refIds['User'] ?? []).filter((id) => id !== user.id);
  // a child goes to the next parent in turn (the values rotate refs by ordinal), so that every
  // parent has children to show and count; in the order they were made (ids are time-ordered), as a
  // list's order moves while parents change
  for (const target of childParents(api.model, entity)) refIds[target] = [...(refIds[target] ?? [])].sort();
  const { input } = generateRecord(api.model, entity, user, {
    writable,
    refIds,
    spread: [...timedFields(api.model, entity), ...(forSomeoneElse ? [owner] : [])],
    ...(wording === undefined ? {} : { wording }),
    ...(api.files === undefined ? {} : { files: api.files.samples }),
  });
  const def = api.model.entities[entity]!;
  const body = api.files === undefined ? input : await api.files.uploaded(def, input, user.id);
  const answer = await api.call<ApiRecord>(role, 'POST', def.resource, body);
  if (answer.status === 201 || answer.status === 200) return answer.body;
  throw new Error(`${role}: ${answer.status} ${JSON.stringify(answer.body)}`);
}

/**
 * Fires a transition over the API as a role, with values for the fields it requires. Returns the
 * record after it, or null when no values fit or the server refused.
 */
export async function fireAs(
  api: DemoApi,
  role: string,
  entity: string,
  record: ApiRecord,
  t: Transition,
  wording?: Wording,
): Promise<ApiRecord | null> {
  let body: Record<string, unknown> = {};
  if (t.require.length > 0) {
    const user = await api.userContext(role);
    try {
      const writable = writableList(api.model, user, entity, 'update', record);
      const generated = generateRecord(api.model, entity, user, {
        writable: [...new Set([...writable, ...t.require])],
        refIds: await refIdsFor(api, role, entity),
        operation: { transition: t.name },
        old: record,
        need: t.require,
        ...(wording === undefined ? {} : { wording }),
        ...(api.files === undefined ? {} : { files: api.files.samples }),
      });
      const def = api.model.entities[entity]!;
      body =
        api.files === undefined ? generated.input : await api.files.uploaded(def, generated.input, user.id);
    } catch {
      return null; // no values satisfy its rules from here (a rule on a field it cannot change)
    }
  }
  const answer = await api.call<ApiRecord>(
    role,
    'POST',
    `${api.model.entities[entity]!.resource}/${record.id}/transitions/${t.name}`,
    body,
    { [IF_MATCH_HEADER]: ifMatch(record.version) },
  );
  return answer.status === 200 ? answer.body : null;
}

/** Fires one step as the first role (in the given order) the server offers it to; null when none may. */
export async function stepAsAnyone(
  api: DemoApi,
  entity: string,
  record: ApiRecord,
  t: Transition,
  actors: readonly string[],
  wording?: Wording,
): Promise<ApiRecord | null> {
  const resource = api.model.entities[entity]!.resource;
  for (const actor of new Set(actors)) {
    const seen = await api.call<ApiRecord>(actor, 'GET', `${resource}/${record.id}`);
    if (seen.status !== 200 || !(seen.body[ACTIONS_KEY] ?? []).includes(t.name)) continue;
    const next = await fireAs(api, actor, entity, seen.body, t, wording);
    if (next !== null) return next;
  }
  return null;
}

async function anyRecords(database: Database, entities: readonly Entity[]): Promise<boolean> {
  for (const entity of entities) {
    const row = await database.db
      .selectFrom(tableName(entity.resource))
      .select('id')
      .limit(1)
      .executeTakeFirst();
    if (row !== undefined) return true;
  }
  return false;
}

/** The entities that name `child` in a child relation: its refs to them are spread over their records. */
function childParents(model: Model, child: string): string[] {
  return Object.values(model.entities)
    .filter((e) => Object.values(e.children).some((r) => r.entity === child))
    .map((e) => e.name);
}

/** Entities ordered so that the targets of references come before the records referring to them. */
function creationOrder(entities: readonly Entity[]): Entity[] {
  const byName = new Map(entities.map((e) => [e.name, e]));
  const out: Entity[] = [];
  const visiting = new Set<string>();
  const visit = (entity: Entity) => {
    if (out.includes(entity) || visiting.has(entity.name)) return; // a cycle: the first visited goes first
    visiting.add(entity.name);
    for (const field of Object.values(entity.fields)) {
      const target = field.type === 'ref' && field.to !== null ? byName.get(field.to) : undefined;
      if (target !== undefined) visit(target);
    }
    out.push(entity);
  };
  entities.forEach(visit);
  return out;
}

const demoWording = (ordinal: number, seed: string): Wording => ({ prefix: SAMPLE, ordinal, seed });

/** Creates the `ordinal`-th record as the roles that may create one, in turn; null when none can. */
async function createAsSomeone(api: DemoApi, entity: string, wording: Wording): Promise<ApiRecord | null> {
  const roles = creators(api.model, entity);
  for (let k = 0; k < roles.length; k++) {
    const role = roles[(wording.ordinal - 1 + k) % roles.length]!; // spread ownership across the creators
    const record = await createAsRole(api, role, entity, wording);
    if (record !== null) return record;
  }
  return null;
}

/** Creates a demo record as the role, trying other values after a refusal; null when none pass. */
async function createAsRole(
  api: DemoApi,
  role: string,
  entity: string,
  wording: Wording,
): Promise<ApiRecord | null> {
  if (accessFor(api.model, await api.userContext(role), 'create', entity) === false) return null;
  for (let attempt = 0; attempt < ATTEMPTS_PER_ROLE; attempt++) {
    try {
      return await createAs(api, role, entity, { ...wording, attempt });
    } catch {
      // refused: a drawn value may be a unique one already made (the next attempt draws others),
      // or this role's grants or the rules refuse it (the next creator may do better)
    }
  }
  return null;
}

/**
 * Tries per creator for one record: a unique field (a two-letter code, say) can draw a value that
 * an earlier record holds; each attempt draws from another seed.
 */
const ATTEMPTS_PER_ROLE = 3;

/**
 * Gives every demo user a reference to the record for each single reference of the User entity to
 * this entity (the same department for all), written to the users table as `users set-roles`
 * writes roles: arranging who the demo people are, not a change any of them makes.
 */
async function shareWithDemoUsers(
  database: Database,
  api: DemoApi,
  entity: string,
  id: string,
): Promise<void> {
  const user = api.model.entities['User'];
  if (user === undefined) return;
  const fields = Object.values(user.fields).filter((f) => f.type === 'ref' && !f.many && f.to === entity);
  if (fields.length === 0) return;
  await database.db
    .updateTable(tableName(user.resource))
    .set(Object.fromEntries(fields.map((f) => [f.name, id])))
    .where('email', 'like', `%@${DEMO_DOMAIN}`)
    .execute();
  api.forget();
}

/** Moves the k-th record towards the k-th state of its machine, so the demo shows every state. */
async function spreadOverStates(
  api: DemoApi,
  entity: string,
  record: ApiRecord,
  k: number,
  seed: string,
): Promise<void> {
  const machine = api.model.states[entity];
  if (machine === undefined) return;
  const states = Object.keys(machine.states);
  await moveTowards(api, entity, record, states[k % states.length]!, demoWording(k + 1, seed));
}

/** Fires the steps of the shortest path to the state, each as a role the server offers it to. */
async function moveTowards(
  api: DemoApi,
  entity: string,
  record: ApiRecord,
  target: string,
  wording: Wording,
): Promise<void> {
  const machine = api.model.states[entity];
  if (machine === undefined) return;
  const path = pathTo(api.model, entity, record.state ?? machine.initial, target) ?? [];
  let current: ApiRecord | null = record;
  for (const step of path) {
    current = await stepAsAnyone(api, entity, current, step, Object.keys(api.model.roles), wording);
    if (current === null) return; // a guard or a rule stops it here: it stays where it got to
  }
}
